import { writeEffects } from './effects.js';
import { oneOffCommand } from './one-off.js';

export const patch = oneOffCommand({
  id: 'http.patch',
  title: 'HTTP PATCH',
  description:
    'Send a PATCH request (json, json_file, body or body_file as the body) and return status, headers and body. Same options as http.request.',
  method: 'PATCH',
  effects: writeEffects('Sends a PATCH request, which usually changes data on the server.'),
  basicSlot: false,
  bodies: true,
  examples: [
    {
      description: 'PATCH a JSON document',
      arguments: { url: 'http://127.0.0.1:8080/items/1', json: { name: 'one' }, expect_status: '2xx' },
    },
  ],
});
