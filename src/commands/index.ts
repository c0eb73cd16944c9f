/** Every built-in domain, in one list. */
import type { DomainModule } from '../catalog/descriptor.js';
import { aiDomain } from './ai/index.js';
import { ctxDomain } from './ctx/index.js';
import { fileDomain } from './file/index.js';
import { gitDomain } from './git/index.js';
import { mcpDomain } from './mcp/index.js';
import { pluginsDomain } from './plugins/index.js';
import { projectDomain } from './project/index.js';
import { runDomain } from './run/index.js';
import { searchDomain } from './search/index.js';
import { secretsDomain } from './secrets/index.js';
import { taskDomain } from './task/index.js';

export const BUILTIN_DOMAINS: readonly DomainModule[] = [
  aiDomain,
  ctxDomain,
  fileDomain,
  gitDomain,
  mcpDomain,
  pluginsDomain,
  projectDomain,
  runDomain,
  searchDomain,
  secretsDomain,
  taskDomain,
];
