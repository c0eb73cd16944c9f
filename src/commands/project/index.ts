import type { DomainModule } from '../../catalog/descriptor.js';
import { commands } from './commands.js';
import { detect } from './detect.js';
import { version } from './version.js';

export const projectDomain: DomainModule = {
  domain: 'project',
  pluginName: 'ah-project',
  description: 'Understand a project without running it: ecosystems, tools, roles, files, versions and suggested commands.',
  notes: ['Manifests are parsed, never executed; no package manager or shell is run.'],
  commands: [detect, commands, version],
};
