/** The `ollama` plugin: one prompt or chat message to a local Ollama server, answer returned whole. */
import type { DomainModule } from '../../../catalog/descriptor.js';
import { ask } from './ask.js';
import { chat } from './chat.js';

export const ollamaPlugin: DomainModule = {
  domain: 'ollama',
  pluginName: 'ah-ollama',
  description: 'Ask a local Ollama model (generate or chat) and get the whole answer with its metrics.',
  notes: ['Needs a running Ollama server (default http://127.0.0.1:11434).'],
  commands: [ask, chat],
};

export default ollamaPlugin;
