import type { DomainModule } from '../../catalog/descriptor.js';
import { blame } from './blame.js';
import { changed } from './changed.js';
import { commitInfo } from './commit-info.js';
import { diff } from './diff.js';
import { remotes } from './remotes.js';
import { status } from './status.js';
import { tagCreate } from './tag-create.js';
import { tags } from './tags.js';

export const gitDomain: DomainModule = {
  domain: 'git',
  pluginName: 'ah-git',
  description: 'Read repository state (status, changes, diffs, commits, blame, tags, remotes) and create local tags.',
  requiredTools: [{ name: 'git', check_args: ['--version'], reason: 'every git command runs the git binary' }],
  notes: [
    'Outside a work tree the listing commands return in_git_repo false with empty fields instead of failing; blame fails.',
    'Paths are parsed from NUL-separated git output, so names with spaces, newlines, " -> " or any UTF-8 come back exactly.',
    'Only git tag create writes (a local tag); nothing is ever pushed.',
  ],
  commands: [status, changed, diff, commitInfo, blame, tags, remotes, tagCreate],
};
