import { defineCommand } from '../../catalog/descriptor.js';
import { Closed, RootObject, type Static, Type } from '../../catalog/schema.js';
import { analyze } from './analyze.js';
import { CATEGORIES, type Category } from './scan.js';
import { FILE_REF, INPUT, openProject, PROJECT_EFFECTS, renderCommands, SCAN_NOTE, SUGGESTION, VERSION } from './shared.js';
import { versionSources } from './versions.js';

const FILE_LIST = Type.Array(FILE_REF);
const output = RootObject({
  command: Type.Literal('project.detect'),
  root: Type.String(),
  ecosystems: Type.Array(Type.String()),
  tools: Type.Array(Type.String()),
  roles: Type.Array(Type.String()),
  files: Closed({
    packages: FILE_LIST,
    locks: FILE_LIST,
    ci: FILE_LIST,
    docs: FILE_LIST,
    changelogs: FILE_LIST,
    deploy: FILE_LIST,
    infra: FILE_LIST,
    config: FILE_LIST,
    quality: FILE_LIST,
    security: FILE_LIST,
  }),
  package_files: FILE_LIST,
  ci_files: FILE_LIST,
  docs_files: FILE_LIST,
  changelog_files: FILE_LIST,
  versions: Type.Array(VERSION),
  commands: Type.Array(SUGGESTION),
});
type Output = Static<typeof output>;

function render(o: Output): string {
  const lines = [
    `root: ${o.root}`,
    `ecosystems: ${o.ecosystems.join(', ') || 'none'}`,
    `tools: ${o.tools.join(', ') || 'none'}`,
    `roles: ${o.roles.join(', ') || 'none'}`,
  ];
  for (const category of CATEGORIES) {
    const list = o.files[category];
    if (list.length > 0) lines.push(`${category}: ${list.map((f) => f.path).join(', ')}`);
  }
  for (const v of o.versions) lines.push(`version: ${v.path} ${v.name ?? '?'} ${v.version ?? '?'}`);
  if (o.commands.length > 0) lines.push('commands:', ...renderCommands(o.commands).map((l) => `  ${l}`));
  return lines.join('\n');
}

export const detect = defineCommand({
  id: 'project.detect',
  title: 'Detect the project',
  description: `What a project is made of: ecosystems, tools, roles (web, backend, mobile, desktop, game, data-science, embedded, cloud, infra, deploy, docs, quality, security, monorepo), its files by category, version sources and suggested commands. Manifests are parsed (JSON, TOML, YAML, XML); no package manager or shell is run. ${SCAN_NOTE}`,
  inputSchema: INPUT,
  outputSchema: output,
  effects: PROJECT_EFFECTS,
  examples: [
    { description: 'Detect the project in the working directory', arguments: {} },
    { description: 'Detect a nested package', arguments: { path: 'packages/web' } },
  ],
  cli: { positionals: ['path'] },
  render,
  async run(args: Static<typeof INPUT>, ctx): Promise<Output> {
    const project = await openProject(args.path, ctx);
    const [analysis, versions] = await Promise.all([analyze(project.scan, project.reader), versionSources(project.scan, project.reader)]);
    const files = Object.fromEntries(CATEGORIES.map((c) => [c, [] as { kind: string; path: string }[]])) as Record<
      Category,
      { kind: string; path: string }[]
    >;
    for (const f of project.scan.files) files[f.category].push({ kind: f.kind, path: f.path });
    return {
      command: 'project.detect',
      root: project.root,
      ecosystems: analysis.ecosystems,
      tools: analysis.tools,
      roles: analysis.roles,
      files,
      package_files: files.packages,
      ci_files: files.ci,
      docs_files: files.docs,
      changelog_files: files.changelogs,
      versions,
      commands: analysis.commands,
    };
  },
});
