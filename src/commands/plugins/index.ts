import type { DomainModule } from '../../catalog/descriptor.js';
import { disable, enable } from './enable-disable.js';
import { list } from './list.js';
import { reset } from './reset.js';

export const pluginsDomain: DomainModule = {
  domain: 'plugins',
  pluginName: 'ah-plugins',
  description: 'List domains and enable, disable or reset them.',
  host: true,
  commands: [list, enable, disable, reset],
};
