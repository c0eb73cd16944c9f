/** A CommandContext for calling handlers directly in unit tests. */
import type { CatalogView, CommandContext, HostApi, Notice } from '../../src/catalog/descriptor.js';
import type { compile } from '../../src/catalog/schema.js';
import { validateArguments } from '../../src/runtime/invoke.js';
import { testVault } from './vault.js';

export interface TestContext extends CommandContext {
  notices: Notice[];
  progressMessages: string[];
  controller: AbortController;
}

const emptyCatalog: CatalogView = {
  revision: 1,
  domains: [],
  disabledDomains: [],
  all: [],
  isEnabled: () => true,
};

export const testHost: HostApi = {
  catalog: () => emptyCatalog,
  setDisabledDomains: () => Promise.reject(new Error('no plugin settings in this test context')),
  pluginSettingsPath: '/nonexistent/plugins.json',
  vault: testVault(),
};

export function testContext(overrides: Partial<CommandContext> & { cwd: string }): TestContext {
  const controller = new AbortController();
  const notices: Notice[] = [];
  const progressMessages: string[] = [];
  return {
    limit: null,
    signal: controller.signal,
    deadline: Number.POSITIVE_INFINITY,
    env: { PATH: process.env.PATH },
    credentials: {},
    notice: (n) => notices.push(n),
    progress: (m) => progressMessages.push(m),
    host: testHost,
    transport: 'cli',
    ...overrides,
    notices,
    progressMessages,
    controller,
  };
}

/**
 * A handler's arguments with the defaults of its input schema filled in, as the invoke path does.
 * Validated as the CLI would, so a handler's own checks of CLI-only options can be reached.
 */
export function withDefaults(schema: Parameters<typeof compile>[0], args: Record<string, unknown>): Record<string, unknown> {
  return validateArguments({ id: 'test.handler', inputSchema: schema }, args, 'cli');
}
