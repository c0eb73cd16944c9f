import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { RUN_ID } from './run-id.js';
import { COMMON, githubClient, READ_EFFECTS, stateless, TOKEN_SLOT } from './shared.js';
import { Artifact, artifactOf } from './shapes.js';

const input = RootObject({ ...COMMON, run_id: RUN_ID });
const output = RootObject({
  command: Type.Literal('github.run.artifacts'),
  repository: Type.String(),
  run_id: Type.Integer(),
  artifacts: Type.Array(Artifact),
  truncated: Type.Boolean(),
});
type Output = Static<typeof output>;

export const runArtifacts = defineCommand({
  id: 'github.run.artifacts',
  title: 'List artifacts of a GitHub Actions run',
  description: 'The artifacts a run uploaded, with sizes, expiry and download URLs (downloading them needs the token).',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: TOKEN_SLOT,
  stateless,
  cli: { positionals: ['run_id'] },
  examples: [{ description: 'Artifacts of run 30433642', arguments: { run_id: 30433642 } }],
  render: (o: Output) =>
    o.artifacts.map((a) => `${a.id}\t${a.size_in_bytes}\t${a.expired ? 'expired' : 'available'}\t${a.name}`).join('\n') || 'no artifacts',
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const gh = await githubClient(args, ctx, 'github.run.artifacts');
    const { items, truncated } = await gh.list<Record<string, any>>(
      'GET /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts',
      { run_id: args.run_id },
      ctx.limit ?? 100,
    );
    return {
      command: 'github.run.artifacts',
      repository: `${gh.target.owner}/${gh.target.name}`,
      run_id: args.run_id,
      artifacts: items.map(artifactOf),
      truncated,
    };
  },
});
