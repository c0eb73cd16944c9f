// Hostile filesystem fixtures (FIFO, socket, devices, a sparse 10 GiB file, a symlink loop) against
// every file.* command, over MCP stdio and the CLI: each answers a clear error or a bounded
// result quickly, and nothing blocks the server (a blocking open used to wedge its thread pool).
import { execFileSync } from 'node:child_process';
import { symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runAh } from '../helpers/cli.js';
import { connectStdio, type StdioServer } from '../helpers/mcp.js';
import { tempDir } from '../helpers/tmp.js';

const open: Array<{ close: () => Promise<void> | void }> = [];
afterEach(async () => {
  for (const item of open.splice(0)) await item.close();
});

type Result = { isError?: boolean; structuredContent?: Record<string, unknown>; _meta?: Record<string, Record<string, unknown>> };

/** Builds every fixture in one directory; returns the names that could be made here. */
async function hostileTree(): Promise<{ dir: string; names: string[] }> {
  const dir = tempDir('ah-hostile-');
  const names: string[] = [];
  execFileSync('mkfifo', [join(dir, 'fifo')]);
  names.push('fifo');
  symlinkSync('/dev/zero', join(dir, 'zero-link'));
  names.push('zero-link');
  try {
    // A real character device node (1,5 is /dev/zero); needs CAP_MKNOD, which a container may lack.
    execFileSync('mknod', [join(dir, 'zero-node'), 'c', '1', '5'], { stdio: 'ignore' });
    names.push('zero-node');
  } catch {
    // The symlink to /dev/zero still covers a device.
  }
  writeFileSync(join(dir, 'sparse-10g'), '');
  truncateSync(join(dir, 'sparse-10g'), 10 * 1024 ** 3);
  names.push('sparse-10g');
  // Under the 64 MiB max_bytes cap: refused as binary after the first read, not after 60 MB.
  writeFileSync(join(dir, 'sparse-60m'), '');
  truncateSync(join(dir, 'sparse-60m'), 60 * 1024 ** 2);
  names.push('sparse-60m');
  symlinkSync('loop-a', join(dir, 'loop-b'));
  symlinkSync('loop-b', join(dir, 'loop-a'));
  names.push('loop-a');
  symlinkSync('self', join(dir, 'self'));
  names.push('self');
  const socket: Server = createServer();
  await new Promise<void>((resolve) => socket.listen(join(dir, 'socket'), resolve));
  open.push({ close: () => new Promise<void>((resolve) => socket.close(() => resolve())) });
  names.push('socket');
  symlinkSync('fifo', join(dir, 'fifo-link'));
  names.push('fifo-link');
  writeFileSync(join(dir, 'plain.txt'), 'hello\n');
  return { dir, names };
}

const CLEAR_CODES = ['PATH_INVALID_TYPE', 'INVALID_ARGUMENT', 'SYMLINK_TRAVERSAL_BLOCKED'];

function calls(name: string): Array<{ tool: string; args: Record<string, unknown> }> {
  const out: Array<{ tool: string; args: Record<string, unknown> }> = [];
  for (const follow of [false, true]) {
    out.push({ tool: 'ah.file.read', args: { path: name, follow_symlinks: follow } });
    out.push({ tool: 'ah.file.read', args: { path: name, follow_symlinks: follow, max_bytes: 64 * 1024 * 1024 } });
    out.push({ tool: 'ah.file.head', args: { path: name, follow_symlinks: follow, lines: 3 } });
    out.push({ tool: 'ah.file.tail', args: { path: name, follow_symlinks: follow, lines: 3 } });
    out.push({ tool: 'ah.file.tree', args: { path: name, follow_symlinks: follow } });
  }
  out.push({ tool: 'ah.file.stat', args: { path: name } });
  return out;
}

describe('file commands on hostile files', () => {
  it('answer every call on FIFOs, devices, sockets, sparse files and loops with a clear error or a bounded result', async () => {
    const { dir, names } = await hostileTree();
    const s: StdioServer = await connectStdio([], { cwd: dir });
    open.push(s);
    for (const name of names) {
      for (const { tool, args } of calls(name)) {
        // The call's own deadline is far below the test's: a blocked open shows as a timeout.
        const result = (await s.client.callTool({ name: tool, arguments: { ...args, context: { timeout_ms: 5000 } } })) as Result;
        const where = `${tool} ${JSON.stringify(args)}`;
        if (result.isError) {
          const code = result._meta?.['dev.aihelper/diagnostic']?.code;
          expect(CLEAR_CODES, `${where} -> ${String(code)}`).toContain(code);
        } else {
          expect(tool === 'ah.file.stat' || tool === 'ah.file.tree', where).toBe(true);
        }
      }
    }
    const fifo = (await s.client.callTool({ name: 'ah.file.read', arguments: { path: 'fifo' } })) as Result;
    expect(fifo._meta?.['dev.aihelper/diagnostic']).toMatchObject({ code: 'PATH_INVALID_TYPE', message: expect.stringContaining('FIFO') });
    const sparse = (await s.client.callTool({ name: 'ah.file.read', arguments: { path: 'sparse-10g' } })) as Result;
    expect(sparse._meta?.['dev.aihelper/diagnostic']).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('too large'),
    });
    const big = (await s.client.callTool({
      name: 'ah.file.read',
      arguments: { path: 'sparse-60m', max_bytes: 64 * 1024 * 1024 },
    })) as Result;
    expect(big._meta?.['dev.aihelper/diagnostic']).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('binary') });
    const stat = (await s.client.callTool({ name: 'ah.file.stat', arguments: { path: 'fifo' } })) as Result;
    expect(stat.structuredContent).toMatchObject({ kind: 'other' });
    // The thread pool is still free: an ordinary read after all of the above succeeds.
    const plain = (await s.client.callTool({ name: 'ah.file.read', arguments: { path: 'plain.txt' } })) as Result;
    expect(plain.structuredContent).toMatchObject({ content: 'hello' });
  }, 120_000);

  it('lets every command that walks a tree pass over them: search, ctx, project and git answer in time', async () => {
    const { dir } = await hostileTree();
    execFileSync('git', ['init', '-q', dir]);
    writeFileSync(join(dir, 'code.ts'), 'export function findMe() {}\n');
    const s: StdioServer = await connectStdio([], { cwd: dir });
    open.push(s);
    const walkers: Array<{ tool: string; args: Record<string, unknown> }> = [
      { tool: 'ah.search.text', args: { pattern: 'findMe' } },
      { tool: 'ah.search.text', args: { pattern: 'findMe', follow_symlinks: true } },
      { tool: 'ah.search.files', args: { query: 'fifo' } },
      { tool: 'ah.ctx.pack', args: {} },
      { tool: 'ah.ctx.pack', args: { follow_symlinks: true } },
      { tool: 'ah.ctx.symbols', args: { path: '.' } },
      { tool: 'ah.project.detect', args: {} },
      { tool: 'ah.git.status', args: {} },
      { tool: 'ah.ctx.changed', args: {} },
    ];
    for (const { tool, args } of walkers) {
      // A blocked open or a read of /dev/zero would show as a timeout here.
      const result = (await s.client.callTool({ name: tool, arguments: { ...args, context: { timeout_ms: 8000 } } })) as Result;
      const code = result._meta?.['dev.aihelper/diagnostic']?.code;
      expect(code, `${tool} ${JSON.stringify(args)}: ${JSON.stringify(result).slice(0, 300)}`).not.toBe('EXECUTION_TIMEOUT');
      if (tool === 'ah.search.text' && !result.isError) expect(JSON.stringify(result.structuredContent)).toContain('code.ts');
    }
    const plain = (await s.client.callTool({ name: 'ah.file.read', arguments: { path: 'plain.txt' } })) as Result;
    expect(plain.structuredContent).toMatchObject({ content: 'hello' });
  }, 120_000);

  it('refuses byte and line inputs above their schema maxima', async () => {
    const { dir } = await hostileTree();
    const s = await connectStdio([], { cwd: dir });
    open.push(s);
    for (const args of [
      { path: 'plain.txt', max_bytes: 64 * 1024 * 1024 + 1 },
      { path: 'plain.txt', to: 2 ** 31 },
      { path: 'plain.txt', from: 1e15 },
    ]) {
      const result = (await s.client.callTool({ name: 'ah.file.read', arguments: args })) as Result;
      const code = result._meta?.['dev.aihelper/diagnostic']?.code;
      expect(['INVALID_ARGUMENT', 'INVALID_RANGE'], `${JSON.stringify(args)} -> ${String(code)}`).toContain(code);
    }
    const head = (await s.client.callTool({ name: 'ah.file.head', arguments: { path: 'plain.txt', lines: 2 ** 40 } })) as Result;
    expect(['INVALID_ARGUMENT', 'INVALID_RANGE']).toContain(head._meta?.['dev.aihelper/diagnostic']?.code);
  });

  it('the CLI refuses a FIFO at once instead of waiting for a writer', async () => {
    const { dir } = await hostileTree();
    const r = await runAh(['--json', 'file', 'read', 'fifo'], { cwd: dir, timeoutMs: 15_000 });
    expect(r.code).not.toBeNull();
    expect(r.errorJson()).toMatchObject({ code: 'PATH_INVALID_TYPE' });
  });
});
