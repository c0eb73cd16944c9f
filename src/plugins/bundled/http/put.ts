import { writeEffects } from './effects.js';
import { oneOffCommand } from './one-off.js';

export const put = oneOffCommand({
  id: 'http.put',
  title: 'HTTP PUT',
  description:
    'Send a PUT request (json, json_file, body or body_file as the body) and return status, headers and body. Same options as http.request.',
  method: 'PUT',
  effects: writeEffects('Sends a PUT request, which usually replaces data on the server.'),
  basicSlot: false,
  bodies: true,
  examples: [
    {
      description: 'PUT a JSON document',
      arguments: { url: 'http://127.0.0.1:8080/items/1', json: { name: 'one' }, expect_status: '2xx' },
    },
  ],
});
