import { defineCommand } from '../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../catalog/schema.js';
import { INPUT, openProject, PROJECT_EFFECTS, SCAN_NOTE, VERSION } from './shared.js';
import { versionSources } from './versions.js';

const output = RootObject({
  command: Type.Literal('project.version'),
  root: Type.String(),
  version_count: Type.Integer({ minimum: 0 }),
  truncated: Type.Boolean(),
  versions: Type.Array(VERSION),
});
type Output = Static<typeof output>;

export const version = defineCommand({
  id: 'project.version',
  title: 'Project versions',
  description: `The name and version each manifest declares: Cargo.toml [package], package.json, pyproject.toml [project] or [tool.poetry], composer.json, pubspec.yaml, .csproj <Version>, pom.xml <version> (parsed: confidence high), .gemspec, mix.exs and build.gradle assignments (found by pattern: medium). A manifest without a version is listed with version null and confidence low. version_count is the total; the limit caps the list. ${SCAN_NOTE}`,
  inputSchema: INPUT,
  outputSchema: output,
  effects: PROJECT_EFFECTS,
  examples: [{ description: 'Versions declared in the project', arguments: {} }],
  cli: { positionals: ['path'] },
  render: (o: Output) => {
    if (o.versions.length === 0) return 'no version sources found';
    const lines = o.versions.map((v) => `${v.path}  ${v.name ?? '-'}  ${v.version ?? '-'}  (${v.confidence})`);
    if (o.truncated) lines.push(`[showing ${o.versions.length} of ${o.version_count}]`);
    return lines.join('\n');
  },
  async run(args: Static<typeof INPUT>, ctx): Promise<Output> {
    const project = await openProject(args.path, ctx);
    const all = await versionSources(project.scan, project.reader);
    const versions = ctx.limit === null ? all : all.slice(0, ctx.limit);
    return { command: 'project.version', root: project.root, version_count: all.length, truncated: versions.length < all.length, versions };
  },
});
