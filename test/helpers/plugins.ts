import { copyFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const TEST_PLUGIN = resolve(import.meta.dirname, '../fixtures/plugins/test-plugin.mjs');

/** Installs the test-only plugin into a config directory. */
export function installTestPlugin(configDir: string): void {
  mkdirSync(join(configDir, 'plugins'), { recursive: true });
  copyFileSync(TEST_PLUGIN, join(configDir, 'plugins', 'test-plugin.mjs'));
}
