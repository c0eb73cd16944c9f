import { describe, expect, it } from 'vitest';
import { domainWord, route } from './route.js';

const table = {
  domains: new Map<string, string[]>([
    ['file', ['file.read', 'file.stat', 'file.tree']],
    ['git', ['git.status', 'git.tag.create', 'git.tags']],
    ['mcp', ['mcp.serve']],
  ]),
};

describe('route', () => {
  it('finds multi-word commands by longest match', () => {
    expect(route(['git', 'tag', 'create', 'v1'], table)).toMatchObject({ kind: 'command', id: 'git.tag.create', tail: ['v1'] });
    expect(route(['git', 'tags', '--latest'], table)).toMatchObject({ kind: 'command', id: 'git.tags', tail: ['--latest'] });
  });

  it('accepts globals before and between words', () => {
    const r = route(['--json', '--cwd', '/tmp', 'file', '--limit', '3', 'read', 'x'], table);
    expect(r).toMatchObject({ kind: 'command', id: 'file.read', tail: ['x'] });
    expect(r.globals).toMatchObject({ json: true, cwd: '/tmp', limit: 3 });
  });

  it('suggests the nearest domain', () => {
    expect(() => route(['fiel', 'read'], table)).toThrowError(
      expect.objectContaining({ code: 'DOMAIN_NOT_FOUND', hint: "Did you mean 'file'?" }),
    );
  });

  it('points `ah version` at --version', () => {
    expect(() => route(['version'], table)).toThrowError(expect.objectContaining({ hint: "Use 'ah --version' to print the version." }));
  });

  it('suggests the nearest command in a domain', () => {
    expect(() => route(['file', 'raed'], table)).toThrowError(
      expect.objectContaining({
        code: 'COMMAND_NOT_FOUND',
        hint: "Did you mean 'ah file read'? Run 'ah file --help' to list its commands.",
      }),
    );
  });

  it('shows domain help for a bare domain and root help for nothing', () => {
    expect(route(['file'], table)).toMatchObject({ kind: 'domain', domain: 'file' });
    expect(route([], table)).toMatchObject({ kind: 'root' });
    expect(route(['help', 'file', 'read'], table)).toMatchObject({ kind: 'command', id: 'file.read' });
  });
});

describe('domainWord', () => {
  it('is the first word after the global options, values included', () => {
    expect(domainWord(['--json', '--cwd', 'search', 'file', 'read', 'x'])).toBe('file');
    expect(domainWord(['--limit=3', 'git', 'status'])).toBe('git');
    expect(domainWord(['search', 'text', 'needle'])).toBe('search');
  });

  it('is undefined with no word, after --, or when the options are wrong (route reports those)', () => {
    expect(domainWord([])).toBeUndefined();
    expect(domainWord(['--json'])).toBeUndefined();
    expect(domainWord(['--', 'file'])).toBeUndefined();
    expect(domainWord(['--no-such-option', 'file'])).toBeUndefined();
    expect(domainWord(['--limit', 'zero', 'file'])).toBeUndefined();
  });
});
