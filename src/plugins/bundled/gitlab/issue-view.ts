import { defineCommand } from '../../../catalog/descriptor.js';
import { Closed, Nullable, RootObject, type Static, Type } from '../../../catalog/schema.js';
import { IID } from './iid.js';
import { COMMON, gitlabClient, READ_EFFECTS, stateless, TOKEN_SLOT } from './shared.js';
import { Issue, issueOf, Note, noteOf } from './shapes.js';

const input = RootObject({
  ...COMMON,
  iid: IID,
  full: Type.Boolean({ default: false, description: 'Add the comments (notes) and the design files (GraphQL)' }),
});
const Design = Closed({ filename: Type.String(), full_path: Nullable(Type.String()), image: Nullable(Type.String()) });
const output = RootObject({
  command: Type.Literal('gitlab.issue.view'),
  project: Type.String(),
  issue: Issue,
  notes: Nullable(Type.Array(Note)),
  designs: Nullable(Type.Array(Design)),
  notes_truncated: Type.Boolean(),
  warnings: Type.Array(Type.String()),
});
type Output = Static<typeof output>;

const DESIGNS = `query($path: ID!, $iid: String!) { project(fullPath: $path) { issue(iid: $iid) { designCollection { designs { nodes { filename fullPath image } } } } } }`;

export const issueView = defineCommand({
  id: 'gitlab.issue.view',
  title: 'Show a GitLab issue',
  description:
    'One issue. With full, also its comments (notes, the limit applies, default 100) and its design files through GraphQL; ' +
    'designs that cannot be read (GraphQL off, numeric project id) leave a warning instead of failing the call.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: TOKEN_SLOT,
  stateless,
  cli: { positionals: ['iid'] },
  examples: [
    { description: 'Issue 42', arguments: { iid: 42 } },
    { description: 'Issue 42 with comments and designs', arguments: { iid: 42, full: true } },
  ],
  render: (o: Output) =>
    [
      `#${o.issue.iid} [${o.issue.state}] ${o.issue.title}`,
      '',
      o.issue.description ?? '',
      ...(o.notes ?? []).map((n) => `\n${n.author?.username ?? '?'}: ${n.body ?? ''}`),
    ]
      .join('\n')
      .trimEnd(),
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const gl = await gitlabClient(args, ctx, 'gitlab.issue.view');
    const issue = issueOf(await gl.request<Record<string, any>>('GET', gl.projectPath(`/issues/${args.iid}`)));
    const out: Output = {
      command: 'gitlab.issue.view',
      project: gl.target.project,
      issue,
      notes: null,
      designs: null,
      notes_truncated: false,
      warnings: [],
    };
    if (!args.full) return out;
    const notes = await gl.list<Record<string, any>>(
      gl.projectPath(`/issues/${args.iid}/notes`),
      { sort: 'asc', order_by: 'created_at' },
      ctx.limit ?? 100,
    );
    out.notes = notes.items.map(noteOf);
    out.notes_truncated = notes.truncated;
    if (/^\d+$/.test(gl.target.project)) {
      out.warnings.push('designs need the project path, not its numeric id');
      return out;
    }
    try {
      const data = await gl.graphql<{ project?: { issue?: { designCollection?: { designs?: { nodes?: Record<string, any>[] } } } } }>(
        DESIGNS,
        {
          path: gl.target.project,
          iid: String(args.iid),
        },
      );
      const nodes = data?.project?.issue?.designCollection?.designs?.nodes ?? [];
      out.designs = nodes.map((d) => ({
        filename: String(d.filename ?? ''),
        full_path: typeof d.fullPath === 'string' ? d.fullPath : null,
        image: typeof d.image === 'string' ? d.image : null,
      }));
    } catch (error) {
      out.warnings.push(`designs unavailable: ${(error as Error).message}`);
    }
    return out;
  },
});
