/** Reads Codex's config.toml with a real TOML parser (read-only; never used to write). */
import { parse as parseToml } from 'smol-toml';
import { AhError } from '../../errors.js';
import { readLaunch } from '../formats.js';
import { valueAt } from '../jsonc.js';
import { readText } from '../json-site.js';
import type { Probe } from '../site.js';
import { LEGACY_NAME, SERVER_NAME } from '../types.js';

export async function probeCodexToml(path: string): Promise<Probe> {
  const text = await readText(path);
  if (text === null) return { present: false, current: null, legacy: false };
  let config: unknown;
  try {
    config = parseToml(text);
  } catch (error) {
    throw new AhError({
      code: 'AI_CONFIG_UNPARSABLE',
      message: `${path} cannot be parsed, so it was left untouched`,
      cause: (error as Error).message.split('\n')[0],
      hint: 'Fix the file by hand (or move it aside) and run the command again.',
      operation: 'ai.config',
    });
  }
  const entry = valueAt(config, ['mcp_servers', SERVER_NAME]);
  return {
    present: entry !== undefined,
    current: entry === undefined ? null : readLaunch(entry),
    legacy: valueAt(config, ['mcp_servers', LEGACY_NAME]) !== undefined,
  };
}
