// stdio reserves stdout for MCP messages: a plugin that prints when it is imported and a handler
// that writes to process.stdout must not put a byte there; the CLI's --json output stays one
// JSON document for the same reason.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEnv, runAh } from '../helpers/cli.js';
import { RawStdioPeer } from '../helpers/mcp.js';

const NOISY = `console.log('noisy plugin loaded');
process.stdout.write('raw bytes at import\\n');
export default {
  domain: 'noisy', pluginName: 'ah-noisy', description: 'Prints everywhere.',
  commands: [{
    id: 'noisy.shout', title: 'Shout', description: 'Writes to stdout, then answers.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    outputSchema: { type: 'object', properties: { command: { const: 'noisy.shout' } }, required: ['command'], additionalProperties: false },
    effects: { readOnly: true, destructive: false, idempotent: true, openWorld: false, effects: [], risk: 'low', impact: 'None.', reversibility: 'yes' },
    examples: [{ description: 'shout', arguments: {} }],
    stateless: true,
    run: async () => { console.log('handler console.log'); process.stdout.write('handler raw write\\n'); return { command: 'noisy.shout' }; },
  }],
};
`;

function noisyEnv() {
  const ah = isolatedEnv();
  mkdirSync(join(ah.configDir, 'plugins'), { recursive: true });
  writeFileSync(join(ah.configDir, 'plugins', 'noisy.mjs'), NOISY);
  return ah;
}

const peers: RawStdioPeer[] = [];
afterEach(() => {
  for (const p of peers.splice(0)) p.child.kill('SIGKILL');
});

describe('a noisy plugin', () => {
  it('over stdio: every stdout line is JSON-RPC; the noise goes to stderr', async () => {
    const peer = new RawStdioPeer(['mcp', 'serve'], { env: noisyEnv().env });
    peers.push(peer);
    await peer.initialize();
    expect(await peer.call(2, 'ah.noisy.shout', {})).toMatchObject({ structuredContent: { command: 'noisy.shout' } });
    expect(peer.badLines).toEqual([]);
    expect(peer.messages.every((m) => m.jsonrpc === '2.0')).toBe(true);
    expect(peer.stderr).toContain('noisy plugin loaded');
    expect(peer.stderr).toContain('handler raw write');
  });

  it('from the CLI: --json output is exactly the result', async () => {
    const r = await runAh(['--json', 'noisy', 'shout'], { env: noisyEnv().env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toEqual({ command: 'noisy.shout' });
    expect(r.stderr).toContain('raw bytes at import');
  });
});
