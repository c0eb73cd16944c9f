import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { COMMON, gitlabClient, READ_EFFECTS, stateless, TOKEN_SLOT } from './shared.js';
import { Project, projectOf } from './shapes.js';

const input = RootObject({ ...COMMON });
const output = RootObject({ command: Type.Literal('gitlab.project'), api_url: Type.String(), project: Project });
type Output = Static<typeof output>;

export const project = defineCommand({
  id: 'gitlab.project',
  title: 'Show the GitLab project',
  description:
    'The project this call targets (from project, else the git remote, with its host for self-managed instances) as the API describes it.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  credentialSlots: TOKEN_SLOT,
  stateless,
  examples: [
    { description: 'The project of the current clone', arguments: {} },
    { description: 'A named project', arguments: { project: 'gitlab-org/gitlab' } },
  ],
  render: (o: Output) =>
    `${o.project.path_with_namespace} (${o.project.visibility ?? '?'})\ndefault branch: ${o.project.default_branch ?? '-'}\n${o.project.web_url ?? ''}`,
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const gl = await gitlabClient(args, ctx, 'gitlab.project');
    const data = await gl.request<Record<string, any>>('GET', gl.projectPath());
    return { command: 'gitlab.project', api_url: gl.target.apiUrl.href.replace(/\/+$/, ''), project: projectOf(data) };
  },
});
