/** Where ah keeps its files. The only module (besides main.ts) that reads process.env. */
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { AhError } from '../errors.js';

export type Env = Readonly<Record<string, string | undefined>>;

/** The user's home directory: HOME (USERPROFILE on Windows) from the given environment, else the OS's answer. */
export function homeDir(env: Env): string {
  return env.HOME || env.USERPROFILE || homedir();
}

/** The config root: AH_CONFIG_DIR, else the platform's per-user config directory. */
export function configRoot(env: Env, platform: NodeJS.Platform = process.platform): string {
  const override = env.AH_CONFIG_DIR;
  if (override !== undefined) {
    if (override.trim() === '') {
      throw new AhError({
        code: 'INVALID_ARGUMENT',
        message: 'AH_CONFIG_DIR is set but empty',
        hint: 'Unset AH_CONFIG_DIR or point it at a directory.',
        operation: 'config',
      });
    }
    return resolve(override);
  }
  if (platform === 'win32') return join(env.APPDATA || join(homeDir(env), 'AppData', 'Roaming'), 'AIHelper');
  if (platform === 'darwin') return join(homeDir(env), 'Library', 'Application Support', 'AIHelper');
  const xdg = env.XDG_CONFIG_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(homeDir(env), '.config'), 'aihelper');
}

/** Durable machine-local state for the managed service, independent of AH_CONFIG_DIR. */
export function stateRoot(env: Env, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(homeDir(env), 'AppData', 'Local'), 'AIHelper', 'managed-mcp');
  const xdg = env.XDG_STATE_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(homeDir(env), '.local', 'state'), 'aihelper', 'managed-mcp');
}

export function pluginSettingsPath(configDir: string): string {
  return join(configDir, 'plugins.json');
}

/** Missing, unreadable or not a directory: all the same answer. */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
