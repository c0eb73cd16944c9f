import { defineCommand } from '../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../catalog/schema.js';
import { analyze } from './analyze.js';
import { INPUT, openProject, PROJECT_EFFECTS, renderCommands, SCAN_NOTE, SUGGESTION } from './shared.js';

const output = RootObject({
  command: Type.Literal('project.commands'),
  root: Type.String(),
  ecosystems: Type.Array(Type.String()),
  tools: Type.Array(Type.String()),
  roles: Type.Array(Type.String()),
  commands: Type.Array(SUGGESTION),
});
type Output = Static<typeof output>;

export const commands = defineCommand({
  id: 'project.commands',
  title: 'Suggest build and test commands',
  description: `Commands to install, build, test, lint and format the project, as argv lists with kind, confidence and reason: the package manager chosen by lock file (npm, pnpm, yarn, bun), the real scripts of package.json, composer.json and deno.json, Make and just targets, and the usual commands of cargo, go, dotnet, Maven, Gradle, Python tools (uv, poetry, pytest, ruff), Dart, Ruby, Elixir, Swift, Zig and CMake. Nothing is run: pass one to run.check. ${SCAN_NOTE}`,
  inputSchema: INPUT,
  outputSchema: output,
  effects: PROJECT_EFFECTS,
  examples: [{ description: 'How to build and test this project', arguments: {} }],
  cli: { positionals: ['path'] },
  // People read the commands; confidence and reason stay in --json.
  render: (o: Output) => (o.commands.length === 0 ? 'no commands found' : renderCommands(o.commands).join('\n')),
  async run(args: Static<typeof INPUT>, ctx): Promise<Output> {
    const project = await openProject(args.path, ctx);
    const analysis = await analyze(project.scan, project.reader);
    return {
      command: 'project.commands',
      root: project.root,
      ecosystems: analysis.ecosystems,
      tools: analysis.tools,
      roles: analysis.roles,
      commands: analysis.commands,
    };
  },
});
