/** The shared body of job.trace and job.warnings: read a job's plain trace within a byte bound and search it. */
import type { CommandContext } from '../../../catalog/descriptor.js';
import { Closed, Type } from '../../../catalog/schema.js';
import { readBounded, searchText } from '../forge/logs.js';
import { type Common, gitlabClient } from './shared.js';

export const MAX_BODY = Type.Integer({
  default: 8 * 1024 * 1024,
  minimum: 1024,
  maximum: 256 * 1024 * 1024,
  description: 'Largest trace read (GITLAB_RESPONSE_TOO_LARGE beyond it)',
});

export const TRACE_RESULT = {
  project: Type.String(),
  job_id: Type.Integer(),
  matches: Type.Array(Closed({ line: Type.Integer({ minimum: 1 }), text: Type.String() })),
  match_count: Type.Integer({ minimum: 0 }),
  truncated: Type.Boolean(),
};

export async function searchTrace(
  args: Common & { job_id: number; max_body_bytes: number },
  ctx: CommandContext,
  operation: string,
  match: (line: string) => boolean,
): Promise<{ project: string; job_id: number; matches: { line: number; text: string }[]; match_count: number; truncated: boolean }> {
  const gl = await gitlabClient(args, ctx, operation);
  const response = await gl.fetchRaw(gl.projectPath(`/jobs/${args.job_id}/trace`));
  const bytes = await readBounded(response, args.max_body_bytes, 'gitlab', operation);
  const found = searchText(new TextDecoder().decode(bytes), 'trace', match, ctx.limit ?? 200);
  return {
    project: gl.target.project,
    job_id: args.job_id,
    matches: found.matches.map(({ line, text }) => ({ line, text })),
    match_count: found.match_count,
    truncated: found.truncated,
  };
}

export function renderTrace(o: { matches: { line: number; text: string }[]; match_count: number; truncated: boolean }): string {
  const lines = o.matches.map((m) => `${m.line}: ${m.text}`);
  if (o.truncated) lines.push(`[${o.match_count} matching lines in all; showing ${o.matches.length}]`);
  return lines.join('\n') || 'no matching lines';
}
