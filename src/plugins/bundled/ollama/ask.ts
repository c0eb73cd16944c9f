import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { COMMON_INPUTS, OLLAMA_EFFECTS, type OllamaOutput, ollamaOutput, renderAnswer } from './shared.js';

const input = RootObject({
  model: COMMON_INPUTS.model,
  prompt: Type.String({ minLength: 1, maxLength: 4_194_304, description: 'The prompt' }),
  system: COMMON_INPUTS.system,
  base_url: COMMON_INPUTS.base_url,
  timeout_secs: COMMON_INPUTS.timeout_secs,
});

export const ask = defineCommand({
  id: 'ollama.ask',
  title: 'Ask a local model',
  description:
    "Send one prompt to an Ollama model (/api/generate) and return the whole answer with Ollama's timing and token metrics. Progress is reported while the model generates.",
  inputSchema: input,
  outputSchema: ollamaOutput('ask'),
  effects: OLLAMA_EFFECTS,
  examples: [{ description: 'Ask a question', arguments: { model: 'llama3.2', prompt: 'Why is the sky blue? One sentence.' } }],
  stateless: true,
  render: renderAnswer,
  async run(args: Static<typeof input>, ctx): Promise<OllamaOutput> {
    const { generate } = await import('./client.js');
    const body: Record<string, unknown> = { model: args.model, prompt: args.prompt };
    if (args.system !== undefined) body.system = args.system;
    return generate({ command: 'ask', model: args.model, baseUrl: args.base_url, timeoutSecs: args.timeout_secs, body }, ctx);
  },
});
