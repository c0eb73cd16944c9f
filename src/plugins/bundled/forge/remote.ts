/**
 * Forge repository detection from a git remote URL: https (with or without userinfo and port),
 * ssh:// and scp-like `git@host:path` forms. The path keeps every segment, so GitLab subgroups
 * (`group/sub/name`) survive; a trailing `.git` and slashes are dropped.
 */
import type { CommandContext } from '../../../catalog/descriptor.js';
import { git } from '../../../commands/git/run-git.js';
import { AhError } from '../../../errors.js';

export interface RemoteLocation {
  /** Lowercase host name, without port or userinfo. */
  host: string;
  /** `owner/name` or `group/sub/name`. */
  path: string;
  /** The URL as git printed it, with any userinfo removed. */
  url: string;
}

const SCP_LIKE = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/\/)(.+)$/;

function cleanPath(path: string): string {
  return path
    .replace(/^\/+|\/+$/g, '')
    .replace(/\.git$/, '')
    .replace(/\/+$/, '');
}

/** Parses a remote URL; null when it names no host and path (a local path, say). */
export function parseRemoteUrl(raw: string): RemoteLocation | null {
  const text = raw.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return null;
    }
    if (!['https:', 'http:', 'ssh:', 'git:', 'git+ssh:', 'ssh+git:'].includes(url.protocol) || url.hostname === '') return null;
    const path = cleanPath(decodeURIComponent(url.pathname));
    if (!path.includes('/')) return null;
    url.username = '';
    url.password = '';
    return { host: url.hostname.toLowerCase(), path, url: url.href };
  }
  const scp = SCP_LIKE.exec(text);
  if (!scp) return null;
  const path = cleanPath(scp[2] as string);
  if (!path.includes('/')) return null;
  return { host: (scp[1] as string).toLowerCase(), path, url: text.replace(/^[^@/\s]+@/, '') };
}

/** The location of `remote` in ctx.cwd's repository, through the git domain's runner. */
export async function detectRemote(ctx: CommandContext, remote: string, domain: string): Promise<RemoteLocation> {
  const out = await git(ctx, ['remote', 'get-url', '--', remote]);
  if (out.code !== 0) {
    throw new AhError({
      code: 'INVALID_ARGUMENT',
      message: `cannot detect the repository: git has no remote '${remote}' here`,
      cause: out.stderr || `git remote get-url exited ${out.code}`,
      hint: domain === 'github' ? 'Pass --repo OWNER/REPO, or run inside a clone.' : 'Pass --project group/name, or run inside a clone.',
      domain,
      operation: `${domain}.repository`,
    });
  }
  const url = out.stdout.toString('utf8').trim();
  const location = parseRemoteUrl(url);
  if (!location) {
    throw new AhError({
      code: 'INVALID_ARGUMENT',
      message: `cannot detect the repository from remote '${remote}'`,
      cause: 'the remote URL names no forge host and path',
      hint: domain === 'github' ? 'Pass --repo OWNER/REPO.' : 'Pass --project group/name.',
      domain,
      operation: `${domain}.repository`,
    });
  }
  return location;
}
