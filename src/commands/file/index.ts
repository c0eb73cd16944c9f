import type { DomainModule } from '../../catalog/descriptor.js';
import { head, tail } from './head-tail.js';
import { read } from './read.js';
import { stat } from './stat.js';
import { tree } from './tree.js';

export const fileDomain: DomainModule = {
  domain: 'file',
  pluginName: 'ah-file',
  description: 'Read text files, their first or last lines, metadata and directory trees.',
  commands: [read, head, tail, stat, tree],
};
