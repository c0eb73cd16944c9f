import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { COMMON_INPUTS, OLLAMA_EFFECTS, type OllamaOutput, ollamaOutput, renderAnswer } from './shared.js';

const input = RootObject({
  model: COMMON_INPUTS.model,
  message: Type.String({ minLength: 1, maxLength: 4_194_304, description: 'The user message' }),
  system: COMMON_INPUTS.system,
  base_url: COMMON_INPUTS.base_url,
  timeout_secs: COMMON_INPUTS.timeout_secs,
});

export const chat = defineCommand({
  id: 'ollama.chat',
  title: 'Chat with a local model',
  description:
    "Send one user message (with an optional system message) to an Ollama model (/api/chat) and return the assistant's whole reply with Ollama's metrics. Progress is reported while the model generates.",
  inputSchema: input,
  outputSchema: ollamaOutput('chat'),
  effects: OLLAMA_EFFECTS,
  examples: [
    { description: 'Chat with a system message', arguments: { model: 'llama3.2', system: 'Answer in French.', message: 'Hello!' } },
  ],
  stateless: true,
  render: renderAnswer,
  async run(args: Static<typeof input>, ctx): Promise<OllamaOutput> {
    const { generate } = await import('./client.js');
    const messages = [
      ...(args.system !== undefined ? [{ role: 'system', content: args.system }] : []),
      { role: 'user', content: args.message },
    ];
    return generate(
      { command: 'chat', model: args.model, baseUrl: args.base_url, timeoutSecs: args.timeout_secs, body: { model: args.model, messages } },
      ctx,
    );
  },
});
