import { describe, expect, it } from 'vitest';
import { effectsProblems } from '../../catalog/effects.js';
import { compile, schemaProblems } from '../../catalog/schema.js';
import { gitDomain } from './index.js';

describe('git domain', () => {
  it('registers the eight commands with valid schemas, examples and effects', () => {
    expect(gitDomain.commands.map((c) => c.id)).toEqual([
      'git.status',
      'git.changed',
      'git.diff',
      'git.commit-info',
      'git.blame',
      'git.tags',
      'git.remotes',
      'git.tag.create',
    ]);
    for (const command of gitDomain.commands) {
      expect(schemaProblems(command.inputSchema), command.id).toBeNull();
      expect(schemaProblems(command.outputSchema), command.id).toBeNull();
      expect(effectsProblems(command.effects), command.id).toEqual([]);
      const outputProps = Object.keys((command.outputSchema as { properties: object }).properties);
      expect(outputProps[0], command.id).toBe('command');
      expect(command.examples.length, command.id).toBeGreaterThan(0);
      for (const example of command.examples)
        expect(compile(command.inputSchema)(structuredClone(example.arguments)), command.id).toBe(true);
      if (command.id !== 'git.tag.create') {
        expect(command.effects).toMatchObject({
          readOnly: true,
          idempotent: true,
          risk: 'low',
          effects: ['filesystem_read', 'process_spawn'],
        });
      }
    }
  });

  it('maps CLI positionals and the --ref alias', () => {
    const cli = Object.fromEntries(gitDomain.commands.map((c) => [c.id, c.cli]));
    expect(cli['git.tag.create']).toEqual({ positionals: ['tag'], aliases: { ref: 'reference' } });
    expect(cli['git.commit-info']).toEqual({ positionals: ['reference'], aliases: { ref: 'reference' } });
    expect(cli['git.blame']).toEqual({ positionals: ['path'] });
  });

  it('applies the documented input defaults', () => {
    const byId = Object.fromEntries(gitDomain.commands.map((c) => [c.id, c]));
    const defaults = (id: string, args: Record<string, unknown>) => {
      const copy = structuredClone(args);
      compile(byId[id]?.inputSchema ?? {})(copy);
      return copy;
    };
    expect(defaults('git.tags', {})).toEqual({ latest: false });
    expect(defaults('git.tag.create', { tag: 't' })).toEqual({ tag: 't', reference: 'HEAD' });
    expect(defaults('git.commit-info', {})).toEqual({ reference: 'HEAD' });
    expect(defaults('git.diff', {})).toEqual({});
  });
});
