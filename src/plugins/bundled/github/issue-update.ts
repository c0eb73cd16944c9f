import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { AhError } from '../../../errors.js';
import { COMMON, githubClient, stateless, textInput, TOKEN_SLOT, writeEffects } from './shared.js';
import { Issue, issueOf } from './shapes.js';

const Names = (what: string) =>
  Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 50, description: what }));

const input = RootObject({
  ...COMMON,
  number: Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1, description: 'Issue number' }),
  title: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'New title' })),
  body: Type.Optional(Type.String({ maxLength: 65536, description: 'New body' })),
  body_file: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: 'Read the new body from this UTF-8 file' })),
  state: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('closed')], { description: 'open or closed' })),
  labels: Names('Replace the labels with these'),
  assignees: Names('Replace the assignees with these'),
});
const output = RootObject({ command: Type.Literal('github.issue.update'), repository: Type.String(), issue: Issue });
type Output = Static<typeof output>;

export const issueUpdate = defineCommand({
  id: 'github.issue.update',
  title: 'Edit a GitHub issue',
  description: 'Change the title, body, state, labels or assignees of an issue; at least one field. Lists replace the current ones.',
  inputSchema: input,
  outputSchema: output,
  effects: writeEffects('Changes an existing issue (the previous text stays in its history).', true),
  credentialSlots: TOKEN_SLOT,
  stateless,
  cli: { positionals: ['number'], aliases: { label: 'labels', assignee: 'assignees' } },
  examples: [{ description: 'Retitle and relabel', arguments: { number: 7, title: 'Crash when offline', labels: ['bug', 'network'] } }],
  render: (o: Output) => `updated #${o.issue.number} [${o.issue.state}] ${o.issue.title}`,
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const body = await textInput(ctx, args.body, args.body_file, ['body', 'body_file']);
    const payload: Record<string, unknown> = {};
    if (args.title !== undefined) payload.title = args.title;
    if (body !== undefined) payload.body = body;
    if (args.state !== undefined) payload.state = args.state;
    if (args.labels !== undefined) payload.labels = args.labels;
    if (args.assignees !== undefined) payload.assignees = args.assignees;
    if (Object.keys(payload).length === 0) {
      throw new AhError({
        code: 'INVALID_ARGUMENT',
        message: 'nothing to change: give at least one of title, body, body_file, state, labels, assignees',
        domain: 'github',
        operation: 'github.issue.update',
      });
    }
    const gh = await githubClient(args, ctx, 'github.issue.update');
    const { data } = await gh.request<Record<string, any>>('PATCH /repos/{owner}/{repo}/issues/{issue_number}', {
      issue_number: args.number,
      ...payload,
    });
    return { command: 'github.issue.update', repository: `${gh.target.owner}/${gh.target.name}`, issue: issueOf(data) };
  },
});
