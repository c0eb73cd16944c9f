import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/helpers/tmp.js';
import { normalizeDomains, readPluginSettings, updateDisabledDomains } from './settings.js';

const stored = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as unknown;

describe('readPluginSettings', () => {
  it('treats a missing file as nothing disabled', async () => {
    const path = join(tempDir(), 'plugins.json');
    expect(await readPluginSettings(path)).toEqual({ version: 1, disabled_domains: [] });
    expect(existsSync(path)).toBe(false);
  });

  it('reads and normalises the stored list', async () => {
    const path = join(tempDir(), 'plugins.json');
    writeFileSync(path, JSON.stringify({ version: 1, disabled_domains: [' Git', 'file', 'git', ''] }));
    expect(await readPluginSettings(path)).toEqual({ version: 1, disabled_domains: ['file', 'git'] });
  });

  it('reports malformed JSON with the path in the cause and a hint', async () => {
    const path = join(tempDir(), 'plugins.json');
    writeFileSync(path, '{"version": 1,');
    const error = await readPluginSettings(path).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'JSON_DESERIALIZATION_FAILED' });
    expect((error as { detail: string }).detail).toContain(path);
    expect((error as { hint: string }).hint).toMatch(/delete it/);
  });

  it.each([
    ['an unknown version', { version: 2, disabled_domains: [] }],
    ['no version', { disabled_domains: [] }],
    ['a list that is not strings', { version: 1, disabled_domains: [1] }],
    ['a missing list', { version: 1 }],
    ['a bare array', []],
    ['null', null],
  ])('refuses %s with JSON_DESERIALIZATION_FAILED', async (_, doc) => {
    const path = join(tempDir(), 'plugins.json');
    writeFileSync(path, JSON.stringify(doc));
    await expect(readPluginSettings(path)).rejects.toMatchObject({ code: 'JSON_DESERIALIZATION_FAILED' });
  });

  it('reports an unreadable path (a directory) as FILE_READ_FAILED', async () => {
    await expect(readPluginSettings(tempDir())).rejects.toMatchObject({ code: 'FILE_READ_FAILED' });
  });
});

describe('normalizeDomains', () => {
  it('trims, lowercases, drops empties, dedupes and sorts', () => {
    expect(normalizeDomains(['  Run ', 'git', 'GIT', '', ' ', 'file'])).toEqual(['file', 'git', 'run']);
  });
});

describe('updateDisabledDomains', () => {
  it('creates the file (and a missing config directory) on the first change', async () => {
    const path = join(tempDir(), 'deep', 'config', 'plugins.json');
    expect(await updateDisabledDomains(path, (d) => [...d, 'Git '])).toEqual({ disabled: ['git'], changed: true });
    expect(stored(path)).toEqual({ version: 1, disabled_domains: ['git'] });
  });

  it('hands the current stored list to the update and stores the normalised result', async () => {
    const path = join(tempDir(), 'plugins.json');
    writeFileSync(path, JSON.stringify({ version: 1, disabled_domains: ['run'] }));
    let seen: readonly string[] = [];
    const result = await updateDisabledDomains(path, (current) => {
      seen = current;
      return [...current, 'file', 'FILE', 'git'];
    });
    expect(seen).toEqual(['run']);
    expect(result).toEqual({ disabled: ['file', 'git', 'run'], changed: true });
    expect(stored(path)).toEqual({ version: 1, disabled_domains: ['file', 'git', 'run'] });
  });

  it('does not rewrite the file when nothing changes', async () => {
    const dir = tempDir();
    const path = join(dir, 'plugins.json');
    const original = '{"version":1,"disabled_domains":["git"]}';
    writeFileSync(path, original);
    expect(await updateDisabledDomains(path, (d) => [...d, 'GIT'])).toEqual({ disabled: ['git'], changed: false });
    expect(readFileSync(path, 'utf8')).toBe(original);
    // Nothing missing and nothing left over: no temp file, no lock.
    expect(readdirSync(dir)).toEqual(['plugins.json']);
  });

  it('does not create a file for a no-op on a fresh config', async () => {
    const path = join(tempDir(), 'plugins.json');
    expect(await updateDisabledDomains(path, (d) => d.filter((x) => x !== 'git'))).toEqual({ disabled: [], changed: false });
    expect(existsSync(path)).toBe(false);
  });

  it('leaves a malformed file untouched and releases the lock', async () => {
    const dir = tempDir();
    const path = join(dir, 'plugins.json');
    writeFileSync(path, 'nope');
    await expect(updateDisabledDomains(path, () => [])).rejects.toMatchObject({ code: 'JSON_DESERIALIZATION_FAILED' });
    expect(readFileSync(path, 'utf8')).toBe('nope');
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('serialises concurrent updates in one process', async () => {
    const path = join(tempDir(), 'plugins.json');
    const names = Array.from({ length: 12 }, (_, i) => `d${String(i).padStart(2, '0')}`);
    await Promise.all(names.map((n) => updateDisabledDomains(path, (d) => [...d, n])));
    expect(stored(path)).toEqual({ version: 1, disabled_domains: names });
  });
});
