import type { DomainModule } from '../../catalog/descriptor.js';
import { check } from './check.js';

export const runDomain: DomainModule = {
  domain: 'run',
  pluginName: 'ah-run',
  description: 'Run programs (no shell) with bounded output and process-tree cleanup.',
  commands: [check],
};
