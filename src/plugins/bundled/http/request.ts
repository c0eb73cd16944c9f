import { writeEffects } from './effects.js';
import { oneOffCommand } from './one-off.js';

export const request = oneOffCommand({
  id: 'http.request',
  title: 'Send an HTTP request',
  description:
    'Send one HTTP request with any method: headers, query, a JSON or raw body (inline or from a file), Basic/Bearer auth or a vault credential, a timeout, a response byte cap, retries on transport errors, timeouts and 5xx, and optional expectations on status, headers, body and JSON (a failed expectation is an HTTP_ASSERTION_FAILED error). Redirects are followed.',
  effects: writeEffects('Sends a request with the chosen method to the given URL.'),
  basicSlot: true,
  bodies: true,
  examples: [
    {
      description: 'Check that a health endpoint answers 200',
      arguments: { method: 'GET', url: 'http://127.0.0.1:8080/health', expect_status: 200 },
    },
    {
      description: 'Send a JSON body with a header',
      arguments: { method: 'PUT', url: 'http://127.0.0.1:8080/items/1', json: { name: 'one' }, headers: ['X-Trace: demo'] },
    },
  ],
});
