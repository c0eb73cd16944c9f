import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/tmp.js';
import { createEventLog } from './events.js';

function lines(dir: string, name: string): Record<string, unknown>[] {
  return readFileSync(join(dir, 'logs', name), 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('event log', () => {
  it('writes command.completed records with the envelope in order', async () => {
    const dir = tempDir();
    const log = createEventLog({ configDir: dir, unredacted: false, now: () => new Date('2026-12-02T10:00:00.123Z'), pid: 42 });
    log.commandCompleted({
      transport: 'mcp',
      command: 'file.read',
      parameters: { path: 'a', token: 'secret-value' },
      status: 'error',
      duration_ms: 5,
      request_id: 'mcp:n:1:e:1',
      tool: 'ah.file.read',
      diagnostic: { code: 'FILE_NOT_FOUND', message: 'no such file', exit_code_hint: 1, cause: 'curl -u user:pw https://x:y@h' },
      queue_wait_ms: 0,
      execution_ms: 4,
    });
    await log.flush();
    const [record] = lines(dir, 'aihelper-2026-12-02.jsonl');
    expect(Object.keys(record ?? {})).toEqual([
      'schema_version',
      'timestamp',
      'event',
      'transport',
      'pid',
      'command',
      'parameters',
      'status',
      'duration_ms',
      'request_id',
      'tool',
      'diagnostic',
      'queue_wait_ms',
      'execution_ms',
    ]);
    expect(record).toMatchObject({
      schema_version: 1,
      timestamp: '2026-12-02T10:00:00.123Z',
      event: 'command.completed',
      pid: 42,
      parameters: { path: 'a', token: '[REDACTED]' },
    });
    expect(JSON.stringify(record)).not.toContain('secret-value');
    expect(JSON.stringify(record)).not.toContain('x:y@');
  });

  it('rolls over by UTC date per write and keeps today plus nine days', async () => {
    const dir = tempDir();
    const logs = join(dir, 'logs');
    mkdirSync(logs);
    for (let d = 1; d <= 29; d += 1) writeFileSync(join(logs, `aihelper-2026-11-${String(d).padStart(2, '0')}.jsonl`), '');
    writeFileSync(join(logs, 'aihelper-2027-01-01.jsonl'), '');
    writeFileSync(join(logs, 'aihelper-2026-02-30.jsonl'), '');
    writeFileSync(join(logs, 'notes.txt'), '');
    writeFileSync(join(dir, 'target'), '');
    symlinkSync(join(dir, 'target'), join(logs, 'aihelper-2026-11-01.jsonl.link'));
    let now = new Date('2026-11-30T23:59:59.900Z');
    const log = createEventLog({ configDir: dir, unredacted: false, now: () => now });
    log.system({ component: 'startup', severity: 'warning', diagnostic: { code: 'X', message: 'm', exit_code_hint: 0 } });
    await log.flush();
    now = new Date('2026-12-01T00:00:00.100Z');
    log.system({ component: 'startup', severity: 'warning', diagnostic: { code: 'Y', message: 'm', exit_code_hint: 0 } });
    await log.flush();
    expect(lines(dir, 'aihelper-2026-11-30.jsonl').map((r) => (r.diagnostic as { code: string }).code)).toEqual(['X']);
    expect(lines(dir, 'aihelper-2026-12-01.jsonl').map((r) => (r.diagnostic as { code: string }).code)).toEqual(['Y']);
    const names = readdirSync(logs).sort();
    expect(names.filter((n) => n.startsWith('aihelper-2026-11-')).sort()).toEqual(
      ['22', '23', '24', '25', '26', '27', '28', '29', '30']
        .map((d) => `aihelper-2026-11-${d}.jsonl`)
        .concat(['aihelper-2026-11-01.jsonl.link'])
        .sort(),
    );
    expect(names).toContain('aihelper-2027-01-01.jsonl');
    expect(names).toContain('aihelper-2026-02-30.jsonl');
    expect(names).toContain('notes.txt');
  });

  it('bounds strings, collections, depth and the record size', async () => {
    const dir = tempDir();
    const log = createEventLog({ configDir: dir, unredacted: true, now: () => new Date('2026-12-02T00:00:00Z') });
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 10; i += 1) deep = { deep };
    log.commandCompleted({
      transport: 'cli',
      command: 'x.y',
      parameters: { long: `${'é'.repeat(3000)}`, list: Array.from({ length: 150 }, (_, i) => i), deep },
      status: 'success',
      duration_ms: 1,
    });
    log.commandCompleted({
      transport: 'cli',
      command: 'x.y',
      parameters: Object.fromEntries(Array.from({ length: 90 }, (_, i) => [`k${i}`, 'x'.repeat(4000)])),
      status: 'success',
      duration_ms: 1,
    });
    await log.flush();
    const [bounded, huge] = lines(dir, 'aihelper-2026-12-02.jsonl');
    const params = bounded?.parameters as { long: string; list: unknown[] };
    expect(Buffer.byteLength(params.long)).toBeLessThan(4200);
    expect(params.long).toContain('[truncated');
    expect(params.long).not.toContain('\uFFFD');
    expect(params.list).toHaveLength(101);
    expect(JSON.stringify(bounded)).toContain('too deep');
    expect(huge).toMatchObject({ parameters: { _truncated: true }, record_truncated: true });
    expect(Buffer.byteLength(JSON.stringify(huge))).toBeLessThan(64 * 1024);
  });

  it('never throws when the log cannot be written', async () => {
    const dir = tempDir();
    const file = join(dir, 'not-a-dir');
    writeFileSync(file, '');
    const log = createEventLog({ configDir: file, unredacted: false });
    expect(() =>
      log.commandCompleted({ transport: 'cli', command: 'a.b', parameters: {}, status: 'success', duration_ms: 1 }),
    ).not.toThrow();
    await expect(log.flush()).resolves.toBeUndefined();
    expect(existsSync(join(file, 'logs'))).toBe(false);
  });

  it('drops events past the queue bound instead of growing', async () => {
    const dir = tempDir();
    const log = createEventLog({ configDir: dir, unredacted: false, now: () => new Date('2026-12-02T00:00:00Z') });
    for (let i = 0; i < 1000; i += 1)
      log.commandCompleted({ transport: 'mcp', command: 'a.b', parameters: { i }, status: 'success', duration_ms: 1 });
    await log.flush();
    const count = lines(dir, 'aihelper-2026-12-02.jsonl').length;
    expect(count).toBeGreaterThanOrEqual(256);
    expect(count).toBeLessThan(1000);
  });
});
