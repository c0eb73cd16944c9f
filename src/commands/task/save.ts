import { defineCommand } from '../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../catalog/schema.js';
import { AhError } from '../../errors.js';
import { NAME_PATTERN, storePath, upsertTask } from './store.js';

const input = RootObject({
  name: Type.String({
    minLength: 1,
    maxLength: 128,
    pattern: NAME_PATTERN,
    description: 'Task name: letters, digits, dot, underscore, dash',
  }),
  command: Type.String({ minLength: 1, maxLength: 65536, description: 'Shell command line, stored verbatim (not run)' }),
});
const output = RootObject({
  command: Type.Literal('task.save'),
  name: Type.String(),
  task_command: Type.String(),
  store_path: Type.String(),
  updated_unix_seconds: Type.Integer({ minimum: 0 }),
});
type Output = Static<typeof output>;

export const save = defineCommand({
  id: 'task.save',
  title: 'Save a task',
  description:
    'Save a named shell command line in the project store <cwd>/.ah/tasks.json (insert, or replace the task of the same name). The command is stored verbatim and not run; task run runs it. Concurrent saves from several processes are serialized and none is lost.',
  inputSchema: input,
  outputSchema: output,
  effects: {
    readOnly: false,
    destructive: true,
    idempotent: false,
    openWorld: false,
    effects: ['filesystem_read', 'filesystem_write', 'configuration_write'],
    risk: 'high',
    impact:
      'Writes .ah/tasks.json in the working directory, replacing any task with the same name; a saved command later runs with task run.',
    reversibility: 'no',
  },
  examples: [
    { description: 'Save the test command', arguments: { name: 'test', command: 'npm test' } },
    { description: 'Save a lint and type check', arguments: { name: 'check', command: 'npx biome ci . && npx tsc --noEmit' } },
  ],
  cli: { positionals: ['name', 'command'] },
  render: (o: Output) => `saved task ${o.name} in ${o.store_path}`,
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    if (!new RegExp(NAME_PATTERN).test(args.name)) {
      throw new AhError({
        code: 'INVALID_ARGUMENT',
        message: `invalid task name '${args.name}'`,
        hint: 'Use letters, digits, dot, underscore and dash.',
      });
    }
    const path = storePath(ctx.cwd);
    const record = await upsertTask(path, args.name, args.command, Math.floor(Date.now() / 1000));
    return {
      command: 'task.save',
      name: record.name,
      task_command: record.command,
      store_path: path,
      updated_unix_seconds: record.updated_unix_seconds,
    };
  },
});
