import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { AhError } from '../../../errors.js';
import { COMMON, githubClient, stateless, TOKEN_SLOT, writeEffects } from './shared.js';

const input = RootObject({
  ...COMMON,
  workflow: Type.String({ minLength: 1, maxLength: 255, description: 'Workflow id or file name (ci.yml)' }),
  ref: Type.String({ minLength: 1, maxLength: 255, description: 'Branch or tag to run on' }),
  inputs: Type.Array(Type.String({ pattern: '^[^=]+=', maxLength: 65536 }), {
    default: [],
    maxItems: 25,
    description: 'Workflow inputs as KEY=VALUE',
  }),
});
const output = RootObject({
  command: Type.Literal('github.workflow.run'),
  repository: Type.String(),
  workflow: Type.String(),
  ref: Type.String(),
  dispatched: Type.Boolean(),
});
type Output = Static<typeof output>;

export const workflowRun = defineCommand({
  id: 'github.workflow.run',
  title: 'Start a GitHub Actions workflow',
  description:
    'Dispatch a workflow_dispatch run of a workflow on a ref with inputs. Needs a token with actions write access; on 401/403 ask the user ' +
    'for a github-token secret with that scope. The run appears in github.runs shortly after.',
  inputSchema: input,
  outputSchema: output,
  effects: writeEffects('Starts a workflow run, which may build, publish or deploy whatever the workflow does.'),
  credentialSlots: TOKEN_SLOT,
  stateless,
  cli: { positionals: ['workflow'], aliases: { input: 'inputs' } },
  examples: [{ description: 'Run ci.yml on main', arguments: { workflow: 'ci.yml', ref: 'main', inputs: ['debug=true'] } }],
  render: (o: Output) => `dispatched ${o.workflow} on ${o.ref}`,
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const inputs: Record<string, string> = {};
    for (const pair of args.inputs) {
      const eq = pair.indexOf('=');
      const key = pair.slice(0, eq).trim();
      if (key === '' || key in inputs) {
        throw new AhError({
          code: 'INVALID_ARGUMENT',
          message: `bad or repeated workflow input '${pair.slice(0, eq)}'`,
          domain: 'github',
          operation: 'github.workflow.run',
        });
      }
      inputs[key] = pair.slice(eq + 1);
    }
    const gh = await githubClient(args, ctx, 'github.workflow.run');
    await gh.request('POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches', {
      workflow_id: /^\d+$/.test(args.workflow) ? Number(args.workflow) : args.workflow,
      ref: args.ref,
      inputs,
    });
    return {
      command: 'github.workflow.run',
      repository: `${gh.target.owner}/${gh.target.name}`,
      workflow: args.workflow,
      ref: args.ref,
      dispatched: true,
    };
  },
});
