/** Output fields shared by run.logs and run.warnings. */
import { Closed, Type } from '../../../catalog/schema.js';

export const LOG_RESULT = {
  repository: Type.String(),
  run_id: Type.Integer(),
  matches: Type.Array(Closed({ file: Type.String(), line: Type.Integer({ minimum: 1 }), text: Type.String() })),
  match_count: Type.Integer({ minimum: 0 }),
  truncated: Type.Boolean(),
};

export function renderMatches(o: {
  matches: { file: string; line: number; text: string }[];
  match_count: number;
  truncated: boolean;
}): string {
  const lines = o.matches.map((m) => `${m.file}:${m.line}: ${m.text}`);
  if (o.truncated) lines.push(`[${o.match_count} matching lines in all; showing ${o.matches.length}]`);
  return lines.join('\n') || 'no matching lines';
}
