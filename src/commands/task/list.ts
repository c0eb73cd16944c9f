import { defineCommand } from '../../catalog/descriptor.js';
import { Closed, RootObject, type Static, Type } from '../../catalog/schema.js';
import { readStore, storePath } from './store.js';

const input = RootObject({});
const TASK = Closed({ name: Type.String(), command: Type.String(), updated_unix_seconds: Type.Integer({ minimum: 0 }) });
const output = RootObject({
  command: Type.Literal('task.list'),
  store_path: Type.String(),
  count: Type.Integer({ minimum: 0 }),
  truncated: Type.Boolean(),
  tasks: Type.Array(TASK),
});
type Output = Static<typeof output>;

export const list = defineCommand({
  id: 'task.list',
  title: 'List saved tasks',
  description:
    'The tasks saved in <cwd>/.ah/tasks.json, in the order they were first saved (none when the store does not exist). count is the total; the limit caps the list.',
  inputSchema: input,
  outputSchema: output,
  effects: {
    readOnly: true,
    destructive: false,
    idempotent: true,
    openWorld: false,
    effects: ['filesystem_read', 'configuration_read'],
    risk: 'medium',
    impact: 'Reads .ah/tasks.json; changes nothing, but saved command lines may contain secrets.',
    reversibility: 'yes',
  },
  examples: [{ description: 'The saved tasks', arguments: {} }],
  render: (o: Output) => {
    if (o.count === 0) return `no tasks in ${o.store_path}`;
    const width = Math.max(...o.tasks.map((t) => t.name.length));
    const lines = o.tasks.map((t) => `${t.name.padEnd(width)}  ${t.command}`);
    if (o.truncated) lines.push(`[showing ${o.tasks.length} of ${o.count} tasks]`);
    return lines.join('\n');
  },
  async run(_args: Static<typeof input>, ctx): Promise<Output> {
    const path = storePath(ctx.cwd);
    const file = await readStore(path);
    const tasks = ctx.limit === null ? file.tasks : file.tasks.slice(0, ctx.limit);
    return { command: 'task.list', store_path: path, count: file.tasks.length, truncated: tasks.length < file.tasks.length, tasks };
  },
});
