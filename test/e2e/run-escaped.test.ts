// Descendants that leave run.check's process group (setsid) and its parent chain (the shell that
// started them exits) are still killed when the server shuts down (SIGTERM, stdin EOF) and when a
// call times out over MCP; the server stays responsive meanwhile.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RawStdioPeer, waitFor } from '../helpers/mcp.js';
import { survivors } from '../helpers/process.js';
import { tempDir } from '../helpers/tmp.js';

const peers: RawStdioPeer[] = [];
afterEach(() => {
  for (const peer of peers.splice(0)) peer.child.kill('SIGKILL');
});

/** A shell that starts an escaped `sleep` (new session, stdio closed), records its pid and waits. */
function escaping(pidFile: string): string[] {
  return ['sh', '-c', `(setsid sh -c 'echo $$ > ${pidFile}; exec sleep 60' </dev/null >/dev/null 2>&1 &); sleep 60`];
}

async function escapedPid(pidFile: string): Promise<number> {
  await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '');
  return Number(readFileSync(pidFile, 'utf8').trim());
}

describe.skipIf(process.platform !== 'linux')('run.check descendants that escaped the process group', () => {
  it.each(['SIGTERM', 'stdin EOF'])(
    '%s shuts the server down and kills them',
    async (how) => {
      const dir = tempDir();
      const peer = new RawStdioPeer(['--cwd', dir, 'mcp', 'serve']);
      peers.push(peer);
      await peer.initialize();
      const pidFile = join(dir, 'escaped');
      peer.send({ id: 5, method: 'tools/call', params: { name: 'ah.run.check', arguments: { command: escaping(pidFile) } } });
      const pid = await escapedPid(pidFile);
      if (how === 'SIGTERM') peer.child.kill('SIGTERM');
      else peer.closeStdin();
      expect(await peer.exited).toBe(0);
      expect(await survivors([pid])).toEqual([]);
    },
    60_000,
  );

  it('a timed-out call returns, frees its slot and leaves none of them', async () => {
    const dir = tempDir();
    const peer = new RawStdioPeer(['--cwd', dir, 'mcp', 'serve', '--max-active', '1']);
    peers.push(peer);
    await peer.initialize();
    const pidFile = join(dir, 'escaped');
    const result = await peer.call(7, 'ah.run.check', { command: escaping(pidFile), timeout_secs: 2 });
    expect(result.structuredContent).toMatchObject({ timed_out: true, success: false });
    expect(await survivors([Number(readFileSync(pidFile, 'utf8').trim())])).toEqual([]);
    // The only slot is free again.
    const next = await peer.call(8, 'ah.run.check', { command: ['true'] });
    expect(next.structuredContent).toMatchObject({ success: true });
  }, 60_000);
});
