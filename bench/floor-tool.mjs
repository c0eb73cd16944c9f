// The one tool every floor server publishes: read a UTF-8 file, result as text + structuredContent.
export const READ_TOOL = {
  name: 'read',
  description: 'Read a UTF-8 file',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
  outputSchema: { type: 'object', properties: { content: { type: 'string' } }, required: ['content'], additionalProperties: false },
};
