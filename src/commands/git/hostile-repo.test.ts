// An untrusted repository must not make the git commands run anything. Each case plants one
// executing setting in the repository's own config (or hooks/attributes) pointing at a script that
// leaves a marker file; every git command then runs in it, and no marker may appear. Where plain
// git run the ordinary way does execute the setting, the case proves that first (the control), so
// the fixture is known to be hostile.
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, makeRepo, type Repo, runGit } from '../../../test/helpers/git.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { blame } from './blame.js';
import { changed } from './changed.js';
import { commitInfo } from './commit-info.js';
import { diff } from './diff.js';
import { remotes } from './remotes.js';
import { git } from './run-git.js';
import { status } from './status.js';
import { tagCreate } from './tag-create.js';
import { tags } from './tags.js';

interface Setting {
  name: string;
  /** Config entries set in the repository's .git/config; `SCRIPT` is replaced by the marker script. */
  config?: [string, string][];
  attributes?: string;
  /** Executable files planted at these paths (relative to the repository) as marker scripts. */
  scripts?: string[];
  /** A plain git command that executes the setting (the control); none where only a tty would. */
  control?: string[];
  /** Runner-level calls beyond the commands (transport settings are only reachable this way). */
  runner?: string[][];
}

const SETTINGS: Setting[] = [
  { name: 'core.fsmonitor', config: [['core.fsmonitor', 'SCRIPT']], control: ['status'] },
  {
    name: 'core.pager and pager.<cmd>',
    config: ['core.pager', 'pager.status', 'pager.diff', 'pager.log', 'pager.show', 'pager.blame', 'pager.tag'].map((k) => [k, 'SCRIPT']),
  },
  { name: 'diff.external', config: [['diff.external', 'SCRIPT']], control: ['diff'] },
  { name: 'diff.<driver>.textconv', config: [['diff.evil.textconv', 'SCRIPT']], attributes: '* diff=evil\n', control: ['diff'] },
  { name: 'diff.<driver>.command', config: [['diff.evil.command', 'SCRIPT']], attributes: '* diff=evil\n', control: ['diff'] },
  { name: 'filter.<driver>.clean', config: [['filter.evil.clean', 'SCRIPT']], attributes: '* filter=evil\n', control: ['diff'] },
  { name: 'filter.<driver>.process', config: [['filter.evil.process', 'SCRIPT']], attributes: '* filter=evil\n', control: ['diff'] },
  { name: 'filter.<driver>.smudge', config: [['filter.evil.smudge', 'SCRIPT']], attributes: '* filter=evil\n' },
  {
    name: 'hooks in .git/hooks',
    scripts: ['.git/hooks/reference-transaction', '.git/hooks/post-index-change'],
    control: ['tag', 'control'],
  },
  {
    name: 'core.hooksPath',
    config: [['core.hooksPath', 'HOOKS']],
    scripts: ['hostile-hooks/reference-transaction', 'hostile-hooks/post-index-change'],
    control: ['tag', 'control'],
  },
  {
    name: 'gpg.program with tag.gpgSign and log.showSignature',
    config: [
      ['tag.gpgSign', 'true'],
      ['log.showSignature', 'true'],
      ['gpg.program', 'SCRIPT'],
    ],
    control: ['tag', '-m', 'signed', 'control'],
  },
  {
    name: 'core.sshCommand, core.gitProxy, credential.helper, core.askPass',
    config: [
      ['remote.origin.url', 'ssh://git.example.invalid/repo.git'],
      ['remote.mirror.url', 'git://127.0.0.1:9/repo.git'],
      ['core.sshCommand', 'SCRIPT'],
      ['core.gitProxy', 'SCRIPT'],
      ['credential.helper', '!SCRIPT'],
      ['core.askPass', 'SCRIPT'],
    ],
    control: ['ls-remote', 'origin'],
    runner: [
      ['ls-remote', 'origin'],
      ['ls-remote', 'mirror'],
      ['fetch', 'origin'],
    ],
  },
  {
    name: 'core.editor and sequence.editor',
    config: [
      ['core.editor', 'SCRIPT'],
      ['sequence.editor', 'SCRIPT'],
    ],
  },
];

/** A committed repository with a tracked file changed in place (same size, so git must hash it). */
async function hostileRepo(setting: Setting): Promise<{ repo: Repo; markers: string }> {
  const repo = await makeRepo();
  const markers = tempDir('ah-git-markers-');
  const script = join(tempDir('ah-git-scripts-'), 'evil.sh');
  // Leaves a marker and exits; git may then fail, which does not matter for the control.
  writeFileSync(script, `#!/bin/sh\necho "$0 $*" > "${markers}/ran-$$"\nexit 0\n`);
  chmodSync(script, 0o755);
  repo.write('a.txt', 'one\ntwo\n');
  repo.write('b.txt', 'bee\n');
  await repo.commitAll('first');
  if (setting.attributes) repo.write('.gitattributes', setting.attributes);
  for (const path of setting.scripts ?? []) {
    mkdirSync(join(repo.dir, path, '..'), { recursive: true });
    writeFileSync(join(repo.dir, path), `#!/bin/sh\necho "$0" > "${markers}/ran-$$"\nexit 0\n`);
    chmodSync(join(repo.dir, path), 0o755);
  }
  for (const [key, value] of setting.config ?? []) {
    const resolved = value.replace('SCRIPT', script).replace('HOOKS', join(repo.dir, 'hostile-hooks'));
    await repo.git(['config', key, resolved]);
  }
  // Same size, new content: stat no longer matches, so status and diff read (and filter) the file.
  repo.write('a.txt', 'uno\ntwo\n');
  return { repo, markers };
}

async function everyCommand(repo: Repo, setting: Setting): Promise<void> {
  const ctx = repo.ctx();
  await call(status, {}, ctx);
  await call(changed, {}, ctx);
  await call(diff, {}, ctx);
  await call(diff, { path: 'a.txt' }, ctx);
  await call(commitInfo, {}, ctx);
  await call(blame, { path: 'a.txt' }, ctx);
  await call(tags, {}, ctx);
  await call(remotes, {}, ctx);
  await call(tagCreate, { tag: 'light' }, ctx);
  await call(tagCreate, { tag: 'annotated', message: 'an annotated tag' }, ctx);
  for (const args of setting.runner ?? []) await git(ctx, args);
}

describe('git commands in a hostile repository', () => {
  it.each(SETTINGS)(
    '$name: no git command executes it',
    async (setting) => {
      if (setting.control) {
        // The control: git as a user would run it does execute this repository's setting.
        const control = await hostileRepo(setting);
        await runGit(control.repo.dir, control.repo.env, setting.control).catch(() => undefined);
        expect(readdirSync(control.markers).length, `control for ${setting.name}`).toBeGreaterThan(0);
      }
      const { repo, markers } = await hostileRepo(setting);
      await everyCommand(repo, setting);
      expect(readdirSync(markers)).toEqual([]);
      // The commands still worked: the annotated tag exists.
      expect(existsSync(join(repo.dir, '.git', 'refs', 'tags', 'annotated'))).toBe(true);
    },
    60_000,
  );

  it("a driver the repository redefines falls back to the user's own definition, not to the repository's", async () => {
    const { repo, markers } = await hostileRepo({
      name: 'redefined filter',
      config: [['filter.lfs.clean', 'SCRIPT']],
      attributes: '* filter=lfs\n',
    });
    // The user's global config defines the same driver (as git-lfs does): that one still runs.
    const trusted = join(tempDir('ah-git-trusted-'), 'clean.sh');
    const trustedMarker = join(tempDir('ah-git-trusted-marker-'), 'ran');
    writeFileSync(trusted, `#!/bin/sh\ntouch "${trustedMarker}"\ncat\n`);
    chmodSync(trusted, 0o755);
    await runGit(repo.dir, repo.env, ['config', '--global', 'filter.lfs.clean', trusted]);
    await call(diff, {}, repo.ctx());
    expect(readdirSync(markers)).toEqual([]);
    expect(existsSync(trustedMarker)).toBe(true);
  }, 60_000);
});
