import { describe, expect, it } from 'vitest';
import { route } from './route.js';

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
