/**
 * A real `ah mcp serve --transport http` with an initialized vault (key from AH_VAULT_MASTER_KEY),
 * its stdout/stderr captured, plus small raw-HTTP helpers for the setup routes. The directories
 * live for the whole file (beforeAll): isolatedEnv's suite-lifetime variant.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { keySourceFromHex } from '../../src/secrets/keys.js';
import type { VaultStore } from '../../src/secrets/types.js';
import { createVault } from '../../src/secrets/vault.js';
import { type AhRun, isolatedEnv, runAh } from './cli.js';
import { type HttpServer, type RawResponse, rawRequest, startHttpServer } from './http.js';

export interface VaultServer {
  server: HttpServer;
  port: number;
  root: string;
  configDir: string;
  env: NodeJS.ProcessEnv;
  masterKey: string;
  /** The same vault, opened in-process with the same key. */
  vault: VaultStore;
  stdout: () => string;
  ah: (args: string[], extra?: NodeJS.ProcessEnv) => Promise<AhRun>;
  /** Everything the server wrote to stdout/stderr and every log file under the config dir. */
  leakSurfaces: () => Record<string, string>;
  vaultBytes: () => Buffer;
  close: () => Promise<void>;
}

export async function startVaultServer(): Promise<VaultServer> {
  const masterKey = randomBytes(32).toString('hex');
  // Lives until the test file ends (or close()): servers are usually started in beforeAll.
  const { configDir, env } = isolatedEnv({ AH_VAULT_MASTER_KEY: masterKey, AH_NO_BROWSER: '1' }, { suite: true });
  const root = dirname(configDir);
  const ah = (args: string[], extra: NodeJS.ProcessEnv = {}) => runAh(args, { cwd: root, env: { ...env, ...extra } });
  const vault = createVault({ configDir, key: keySourceFromHex(masterKey) });
  await vault.init();
  const server = await startHttpServer({ env });
  let stdout = '';
  server.child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  return {
    server,
    port: server.port,
    root,
    configDir,
    env: { ...env, AH_MCP_HTTP_URL: `http://127.0.0.1:${server.port}` },
    masterKey,
    vault,
    stdout: () => stdout,
    ah: (args, extra = {}) => ah(args, { AH_MCP_HTTP_URL: `http://127.0.0.1:${server.port}`, ...extra }),
    leakSurfaces: () => {
      const surfaces: Record<string, string> = { 'server stdout': stdout, 'server stderr': server.stderr() };
      const logs = join(configDir, 'logs');
      for (const name of safeList(logs)) surfaces[`log ${name}`] = readFileSync(join(logs, name), 'utf8');
      return surfaces;
    },
    vaultBytes: () => readFileSync(join(configDir, 'secrets.v1.json')),
    close: async () => {
      await server.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

export const JSON_TYPE = { 'content-type': 'application/json' };
export const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };

/** Mints over raw HTTP; returns the path+query of the setup URL and the capability. */
export async function mintRaw(port: number, body: unknown): Promise<{ path: string; capability: string; res: RawResponse }> {
  const res = await rawRequest(port, { method: 'POST', path: '/secrets/setup/capability', headers: JSON_TYPE, body: JSON.stringify(body) });
  expect(res.status, res.body).toBe(201);
  const url = new URL(res.json<{ setup_url: string }>().setup_url);
  return { path: `${url.pathname}${url.search}`, capability: url.searchParams.get('capability') ?? '', res };
}

/** Asserts none of the needles occurs in any surface (reporting where, not the value). */
export function expectNowhere(surfaces: Record<string, string | Buffer>, needles: Record<string, string>): void {
  for (const [where, text] of Object.entries(surfaces)) {
    for (const [what, needle] of Object.entries(needles)) {
      const found = Buffer.isBuffer(text) ? text.includes(Buffer.from(needle)) : text.includes(needle);
      expect(found, `${what} appears in ${where}`).toBe(false);
    }
  }
}
