import type { DomainModule } from '../../catalog/descriptor.js';
import { files } from './files.js';
import { text } from './text.js';

export const searchDomain: DomainModule = {
  domain: 'search',
  pluginName: 'ah-search',
  description: 'Search file contents and paths with gitignore-aware traversal.',
  commands: [text, files],
};
