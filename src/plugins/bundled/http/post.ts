import { writeEffects } from './effects.js';
import { oneOffCommand } from './one-off.js';

export const post = oneOffCommand({
  id: 'http.post',
  title: 'HTTP POST',
  description:
    'Send a POST request (json, json_file, body or body_file as the body) and return status, headers and body. Same options as http.request.',
  method: 'POST',
  effects: writeEffects('Sends a POST request, which usually creates data on the server.'),
  basicSlot: true,
  bodies: true,
  examples: [
    {
      description: 'POST a JSON document',
      arguments: { url: 'http://127.0.0.1:8080/items/1', json: { name: 'one' }, expect_status: '2xx' },
    },
  ],
});
