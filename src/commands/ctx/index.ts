import type { DomainModule } from '../../catalog/descriptor.js';
import { changed } from './changed.js';
import { pack } from './pack.js';
import { symbols } from './symbols.js';

export const ctxDomain: DomainModule = {
  domain: 'ctx',
  pluginName: 'ah-ctx',
  description: 'Context for agents: a bounded project inventory, symbols per file, and the changed set.',
  requiredTools: [{ name: 'git', check_args: ['--version'], reason: 'ctx changed reads git status' }],
  commands: [pack, symbols, changed],
};
