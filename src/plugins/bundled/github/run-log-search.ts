/**
 * The shared body of run.logs and run.warnings: download the run's log archive (the API answers
 * with a redirect to storage on another host, which receives no token), then search it.
 */
import type { CommandContext } from '../../../catalog/descriptor.js';
import { Type } from '../../../catalog/schema.js';
import { AhError } from '../../../errors.js';
import { type LogSearch, readBounded, searchZip } from '../forge/logs.js';
import type { Common, GithubClient } from './shared.js';
import { githubClient } from './shared.js';

export const LOG_BOUNDS = {
  max_body_bytes: Type.Integer({
    default: 8 * 1024 * 1024,
    minimum: 1024,
    maximum: 256 * 1024 * 1024,
    description: 'Largest compressed archive read',
  }),
  max_expanded_bytes: Type.Integer({
    default: 32 * 1024 * 1024,
    minimum: 1024,
    maximum: 1024 * 1024 * 1024,
    description: 'Largest total of inflated log text searched',
  }),
};

const MAX_REDIRECTS = 5;

async function archiveResponse(gh: GithubClient, runId: number, operation: string): Promise<Response> {
  let url = `${gh.target.apiUrl.href.replace(/\/+$/, '')}/repos/${gh.target.owner}/${gh.target.name}/actions/runs/${runId}/logs`;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
    const response = await gh.fetch(url, { redirect: 'manual', headers: { accept: 'application/vnd.github+json' } });
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      url = new URL(location, url).href;
      continue;
    }
    if (response.status === 404 || response.status === 410) {
      await response.body?.cancel();
      throw new AhError({
        code: 'GITHUB_LOGS_UNAVAILABLE',
        message: `run ${runId} has no logs to read: it is not finished yet, or its logs have expired`,
        hint: 'Wait for the run (github.run.wait), then retry; logs are kept for a limited time.',
        domain: 'github',
        operation,
      });
    }
    if (!response.ok) {
      const { apiError } = await import('../forge/api-error.js');
      const text = await response.text().catch(() => '');
      let message: string | undefined;
      try {
        message = (JSON.parse(text) as { message?: string }).message;
      } catch {
        message = undefined;
      }
      throw apiError(
        'github',
        operation,
        { status: response.status, headers: Object.fromEntries(response.headers), ...(message ? { message } : {}) },
        'github-token',
      );
    }
    return response;
  }
  throw new AhError({ code: 'GITHUB_API_FAILED', message: 'too many redirects while fetching the run logs', domain: 'github', operation });
}

export async function searchRunLogs(
  args: Common & { run_id: number; max_body_bytes: number; max_expanded_bytes: number },
  ctx: CommandContext,
  operation: string,
  match: (line: string) => boolean,
): Promise<{ repository: string; search: LogSearch }> {
  const gh = await githubClient(args, ctx, operation);
  const response = await archiveResponse(gh, args.run_id, operation);
  const archive = await readBounded(response, args.max_body_bytes, 'github', operation);
  const search = await searchZip(archive, match, {
    limit: ctx.limit ?? 200,
    maxExpanded: args.max_expanded_bytes,
    domain: 'github',
    operation,
  });
  return { repository: `${gh.target.owner}/${gh.target.name}`, search };
}
