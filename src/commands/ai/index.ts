import type { DomainModule } from '../../catalog/descriptor.js';
import { info } from './info.js';

export const aiDomain: DomainModule = {
  domain: 'ai',
  pluginName: 'ah-ai',
  description: 'Self-description of the catalog for AI agents.',
  host: true,
  commands: [info],
};
