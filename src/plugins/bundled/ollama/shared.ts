/** Inputs, output and effects shared by `ollama ask` and `ollama chat`. */
import type { Effects } from '../../../catalog/effects.js';
import { Closed, Nullable, RootObject, type Static, Type } from '../../../catalog/schema.js';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:11434';

export const COMMON_INPUTS = {
  model: Type.String({ minLength: 1, maxLength: 256, description: 'Model name as Ollama knows it, e.g. llama3.2' }),
  system: Type.Optional(Type.String({ maxLength: 1_048_576, description: 'System prompt' })),
  base_url: Type.String({ minLength: 1, maxLength: 2048, default: DEFAULT_BASE_URL, description: 'Ollama server URL' }),
  timeout_secs: Type.Integer({
    minimum: 1,
    maximum: 3600,
    default: 120,
    description: 'Timeout in seconds (shortened to the call deadline)',
  }),
};

const Metric = Nullable(Type.Integer());

export function ollamaOutput(command: 'ask' | 'chat') {
  return RootObject({
    command: Type.Literal(command),
    model: Type.String(),
    response: Type.String(),
    created_at: Nullable(Type.String()),
    done: Nullable(Type.Boolean()),
    done_reason: Nullable(Type.String()),
    metrics: Closed({
      total_duration: Metric,
      load_duration: Metric,
      prompt_eval_count: Metric,
      prompt_eval_duration: Metric,
      eval_count: Metric,
      eval_duration: Metric,
    }),
  });
}
export type OllamaOutput = Static<ReturnType<typeof ollamaOutput>>;

export const OLLAMA_EFFECTS: Effects = {
  readOnly: false,
  destructive: false,
  idempotent: false,
  openWorld: true,
  effects: ['network_read', 'network_write', 'external_write'],
  risk: 'high',
  impact: 'Sends the prompt to the Ollama server at base_url, which spends compute on a generation; the data sent cannot be taken back.',
  reversibility: 'no',
};

export const renderAnswer = (o: OllamaOutput) => o.response;
