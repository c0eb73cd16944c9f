// When the shutdown budget is spent the process exits, whatever is still blocked: here every
// thread of libuv's pool is stuck in open() on a FIFO with no writer (what file.read did before
// it opened with O_NONBLOCK), so even the final log flush can never finish.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/cli.js';
import { RawStdioPeer } from '../helpers/mcp.js';
import { tempDir } from '../helpers/tmp.js';

const peers: RawStdioPeer[] = [];
afterEach(() => {
  for (const peer of peers.splice(0)) if (peer.child.exitCode === null && peer.child.signalCode === null) peer.child.kill('SIGKILL');
});

// A test plugin (loaded through the ordinary plugin directory) whose one command starts blocking
// opens on the FIFOs it is given and answers at once.
const BLOCKER = `import { open } from 'node:fs';
export default {
  domain: 'blocker', pluginName: 'ah-blocker', description: 'Blocks the thread pool.',
  commands: [{
    id: 'blocker.pool', title: 'Block the pool', description: 'Opens FIFOs with no writer.',
    inputSchema: { type: 'object', properties: { paths: { type: 'array', items: { type: 'string' } } }, required: ['paths'], additionalProperties: false },
    outputSchema: { type: 'object', properties: { command: { const: 'blocker.pool' } }, required: ['command'], additionalProperties: false },
    effects: { readOnly: true, destructive: false, idempotent: true, openWorld: false, effects: [], risk: 'low', impact: 'None.', reversibility: 'yes' },
    examples: [{ description: 'block', arguments: { paths: [] } }],
    stateless: true,
    run: async (args) => { for (const path of args.paths) open(path, 'r', () => undefined); return { command: 'blocker.pool' }; },
  }],
};
`;

describe('shutdown with a blocked thread pool', () => {
  it('exits after stdin EOF even though thread-pool work never returns', async () => {
    const dir = tempDir('ah-blocked-');
    const fifos = [1, 2, 3, 4].map((n) => join(dir, `fifo-${n}`));
    for (const fifo of fifos) execFileSync('mkfifo', [fifo]);
    const ah = isolatedEnv({ UV_THREADPOOL_SIZE: '4' });
    mkdirSync(join(ah.configDir, 'plugins'), { recursive: true });
    writeFileSync(join(ah.configDir, 'plugins', 'blocker.mjs'), BLOCKER);
    const env = ah.env;
    const peer = new RawStdioPeer(['mcp', 'serve'], { cwd: dir, env });
    peers.push(peer);
    await peer.initialize();
    peer.send({ id: 1, method: 'tools/call', params: { name: 'ah.blocker.pool', arguments: { paths: fifos } } });
    expect(await peer.response(1)).toMatchObject({ result: { structuredContent: { command: 'blocker.pool' } } });
    // A logged call queues a log write behind the blocked threads.
    peer.send({ id: 2, method: 'tools/call', params: { name: 'ah.file.stat', arguments: { path: '.' } } });
    await new Promise((r) => setTimeout(r, 200));
    peer.closeStdin();
    const exited = await Promise.race([
      peer.exited.then((code) => ({ code })),
      new Promise<'hung'>((r) => setTimeout(() => r('hung'), 20_000)),
    ]);
    expect(exited, `stderr: ${peer.stderr}`).not.toBe('hung');
    expect(peer.stderr).toContain('exiting');
  }, 40_000);
});
