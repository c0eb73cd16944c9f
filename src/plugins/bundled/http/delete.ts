import { writeEffects } from './effects.js';
import { oneOffCommand } from './one-off.js';

export const del = oneOffCommand({
  id: 'http.delete',
  title: 'HTTP DELETE',
  description:
    'Send a DELETE request (json, json_file, body or body_file as the body) and return status, headers and body. Same options as http.request.',
  method: 'DELETE',
  effects: writeEffects('Sends a DELETE request, which usually deletes data on the server.'),
  basicSlot: false,
  bodies: true,
  examples: [{ description: 'Delete an item and expect 204', arguments: { url: 'http://127.0.0.1:8080/items/1', expect_status: 204 } }],
});
