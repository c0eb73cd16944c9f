import { READ_EFFECTS } from './effects.js';
import { oneOffCommand } from './one-off.js';

export const get = oneOffCommand({
  id: 'http.get',
  title: 'HTTP GET',
  description:
    'Send a GET request and return status, headers and body (capped by max_response_bytes). Same options as http.request without a body; expectations on status, headers, body and JSON fail the call with HTTP_ASSERTION_FAILED.',
  method: 'GET',
  effects: READ_EFFECTS,
  basicSlot: true,
  bodies: false,
  examples: [
    { description: 'Fetch a JSON document', arguments: { url: 'http://127.0.0.1:8080/api/status', headers: ['Accept: application/json'] } },
    {
      description: 'Assert a field of a JSON response',
      arguments: { url: 'http://127.0.0.1:8080/api/user/1', expect_status: '2xx', expect_json: ['id:eq:1', 'name:exists'] },
    },
  ],
});
