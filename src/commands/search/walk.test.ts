import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ignore from 'ignore';
import { describe, expect, it } from 'vitest';
import { excludesSetting, holdsNoPattern, ruleManager } from './walk.js';

describe('excludesSetting', () => {
  it('reads the last core.excludesFile, unquoted, and nothing from other sections', () => {
    expect(excludesSetting('[core]\n\texcludesFile = ~/one\n[user]\n\texcludesfile = /no\n[core]\n  ExcludesFile = "/two x"\n')).toBe(
      '/two x',
    );
    expect(excludesSetting('[user]\n\tname = me\n')).toBeNull();
  });
});

describe('holdsNoPattern', () => {
  it('is true only for text of blank lines and comments', () => {
    // What git init writes to .git/info/exclude.
    expect(holdsNoPattern("# git ls-files --others --exclude-from=.git/info/exclude\n# Lines that start with '#' are comments.\n")).toBe(
      true,
    );
    expect(holdsNoPattern('')).toBe(true);
    expect(holdsNoPattern('\r\n   \n\t\n')).toBe(true);
    expect(holdsNoPattern('# comment\n*.log\n')).toBe(false);
    // An escaped hash and a pattern after leading spaces are patterns.
    expect(holdsNoPattern('\\#file\n')).toBe(false);
    expect(holdsNoPattern('  # not a comment\n')).toBe(false);
    expect(holdsNoPattern('!keep\n')).toBe(false);
  });
});

describe('the private per-path test of ignore (walk.ts PathTest)', () => {
  const json = (path: string) => JSON.parse(readFileSync(resolve(import.meta.dirname, path), 'utf8'));

  it('is used only with the exact version it was written for', () => {
    expect(json('../../../package.json').dependencies.ignore).toBe('7.0.17');
    expect(json('../../../node_modules/ignore/package.json').version).toBe('7.0.17');
  });

  it('gives the verdict of the patterns on the path alone, unlike the public test', () => {
    const rules = ignore({ allowRelativePaths: true }).add('vendor/\n*.log\n!keep.log\n');
    const test = ruleManager(rules);
    expect(test.test('vendor/', 'regex')).toMatchObject({ ignored: true, unignored: false });
    expect(test.test('src/a.log', 'regex')).toMatchObject({ ignored: true, unignored: false });
    expect(test.test('src/keep.log', 'regex')).toMatchObject({ ignored: false, unignored: true });
    // Under an ignored directory: nothing matches the path itself (the public test says ignored).
    expect(test.test('vendor/lib/a.txt', 'regex')).toMatchObject({ ignored: false, unignored: false });
    expect(rules.test('vendor/lib/a.txt').ignored).toBe(true);
    expect(() => ruleManager({} as never)).toThrow('pinned');
  });
});
