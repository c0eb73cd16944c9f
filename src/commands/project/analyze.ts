/**
 * From the scan and the parsed manifests to ecosystems, tools, roles and command suggestions.
 * Suggestions are argv lists to run in the project root (nested packages use the tool's own
 * directory flag); nothing here runs them.
 */
import { dig, isObject, keysOf, type ManifestReader, str } from './manifests.js';
import { dirOf, type FoundFile, type Scan } from './scan.js';

interface Suggestion {
  command: string[];
  kind: string;
  confidence: 'high' | 'medium' | 'low';
  reason: string;
}

interface Analysis {
  ecosystems: string[];
  tools: string[];
  roles: string[];
  commands: Suggestion[];
}

/** Package manifest kinds per ecosystem, space-separated. */
const ECOSYSTEMS: Record<string, string> = {
  node: 'npm pnpm-workspace',
  rust: 'cargo',
  go: 'go go-workspace',
  python: 'python python-setuptools pip pipenv',
  php: 'composer',
  dart: 'dart',
  ruby: 'bundler gemspec',
  elixir: 'mix',
  dotnet: 'dotnet dotnet-solution',
  java: 'maven gradle gradle-settings',
  deno: 'deno',
  cpp: 'cmake',
  swift: 'swift',
  zig: 'zig',
  haskell: 'stack cabal',
  erlang: 'rebar',
};
const ECOSYSTEM_OF = new Map(Object.entries(ECOSYSTEMS).flatMap(([eco, kinds]) => kinds.split(' ').map((kind) => [kind, eco] as const)));

/** Script names → suggestion kind. */
function scriptKind(name: string): string {
  if (/^test(:|$)/.test(name)) return 'test';
  if (/^(build|compile)(:|$)/.test(name)) return 'build';
  if (/^lint(:|$)/.test(name)) return 'lint';
  if (/^(format|fmt)(:|$)/.test(name)) return 'format';
  if (/^(typecheck|type-check|check|tsc)(:|$)/.test(name)) return 'check';
  if (/^(dev|start|serve|preview)(:|$)/.test(name)) return 'run';
  if (/^bench/.test(name)) return 'bench';
  return 'script';
}

const WEB_DEPS = [
  'react',
  'vue',
  'svelte',
  'next',
  'nuxt',
  '@angular/core',
  'solid-js',
  'astro',
  'vite',
  'preact',
  'lit',
  '@remix-run/react',
];
const BACKEND_DEPS = ['express', 'fastify', 'koa', '@nestjs/core', 'hono', '@hapi/hapi', 'pg', 'mongoose', 'prisma', '@prisma/client'];
const DESKTOP_DEPS = ['electron', '@tauri-apps/api', '@tauri-apps/cli'];
const MOBILE_DEPS = ['react-native', 'expo', '@capacitor/core', '@ionic/core'];
const GAME_DEPS = ['phaser', 'three', 'pixi.js', 'babylonjs', 'bevy', 'macroquad', 'ggez', 'pygame', 'godot', 'raylib'];
const DATA_DEPS = ['numpy', 'pandas', 'scipy', 'scikit-learn', 'torch', 'tensorflow', 'jupyter', 'polars', 'matplotlib'];
const PY_BACKEND = ['django', 'flask', 'fastapi', 'starlette', 'aiohttp', 'sqlalchemy'];
const RUST_BACKEND = ['axum', 'actix-web', 'rocket', 'warp', 'tokio', 'hyper', 'tonic', 'sqlx'];
const RUST_EMBEDDED = ['cortex-m', 'cortex-m-rt', 'embedded-hal', 'esp-idf-sys', 'avr-device', 'rp2040-hal'];
const RUST_WEB = ['yew', 'leptos', 'dioxus', 'wasm-bindgen'];
const GO_BACKEND = [
  'github.com/gin-gonic/gin',
  'github.com/labstack/echo',
  'github.com/gofiber/fiber',
  'google.golang.org/grpc',
  'github.com/go-chi/chi',
];
const CLOUD_DEPS = [
  'aws-cdk-lib',
  '@pulumi/pulumi',
  'serverless',
  '@aws-sdk/client-s3',
  'boto3',
  '@google-cloud/storage',
  '@azure/storage-blob',
];

/** Where a nested package lives, as the suffix of a reason. */
function at(dir: string): string {
  return dir === '' ? '' : ` in ${dir}`;
}

export async function analyze(scan: Scan, reader: ManifestReader): Promise<Analysis> {
  const ecosystems = new Set<string>();
  const tools = new Set<string>();
  const roles = new Set<string>();
  const commands: Suggestion[] = [];
  const offer = (command: string[], kind: string, confidence: Suggestion['confidence'], reason: string) =>
    void commands.push({ command, kind, confidence, reason });
  const has = (path: string) => scan.paths.has(path);
  const filesOf = (category: string, kind?: string): FoundFile[] =>
    scan.files.filter((f) => f.category === category && (kind === undefined || f.kind === kind));
  const lockIn = (dir: string, kind: string) => scan.files.some((f) => f.category === 'locks' && f.kind === kind && dirOf(f.path) === dir);
  const deps = new Set<string>();

  for (const f of scan.files) {
    if (f.category === 'packages') {
      const eco = ECOSYSTEM_OF.get(f.kind);
      if (eco) ecosystems.add(eco);
    }
    if (
      f.category === 'locks' ||
      f.category === 'config' ||
      f.category === 'quality' ||
      f.category === 'deploy' ||
      f.category === 'infra'
    ) {
      tools.add(f.kind);
    }
  }

  // Node: the package manager comes from the lock file next to the root package.json (or the
  // nearest one above a nested package), then from packageManager, then npm.
  const nodeManifests = filesOf('packages', 'npm');
  const rootNode = nodeManifests.find((f) => f.path === 'package.json');
  let rootPm: string | null = null;
  for (const manifest of nodeManifests) {
    const dir = dirOf(manifest.path);
    const json = await reader.json(manifest.path);
    if (json === null) continue;
    for (const key of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'])
      for (const d of keysOf(json[key])) deps.add(d);
    const declared = str(json.packageManager)?.split('@')[0] ?? null;
    const pm: string =
      (['pnpm', 'yarn', 'bun', 'npm'] as const).find((p) => lockIn(dir, p)) ?? (rootPm && dir !== '' ? rootPm : null) ?? declared ?? 'npm';
    if (dir === '') rootPm = pm;
    tools.add(pm);
    if (dir !== '' && rootNode !== undefined) continue; // Workspace members run through the root.
    const prefix = (argv: string[]) => (dir === '' ? argv : pmInDir(pm, dir, argv));
    const locked = lockIn(dir, pm);
    offer(
      prefix(installCommand(pm, locked)),
      'install',
      locked ? 'high' : 'medium',
      locked ? `${pm} lock file${at(dir)}` : `${manifest.path} without a lock file`,
    );
    const scripts = isObject(json.scripts) ? json.scripts : {};
    for (const name of Object.keys(scripts)) {
      if (/^(pre|post)/.test(name) && Object.hasOwn(scripts, name.replace(/^(pre|post)/, ''))) continue;
      if (name === 'prepare' || name === 'prepublishOnly' || name === 'install' || name === 'postinstall') continue;
      const argv = name === 'test' || name === 'start' ? [pm, name] : [pm, 'run', name];
      offer(prefix(argv), scriptKind(name), 'high', `script "${name}" in ${manifest.path}`);
    }
    if (isObject(json.workspaces) || Array.isArray(json.workspaces)) roles.add('monorepo');
  }
  if (has('pnpm-workspace.yaml') || has('lerna.json') || has('nx.json') || has('turbo.json')) roles.add('monorepo');
  if (deps.has('typescript') || filesOf('config', 'typescript').length > 0) tools.add('typescript');
  for (const d of ['vitest', 'jest', 'mocha', 'eslint', 'prettier', '@biomejs/biome', 'playwright', '@playwright/test', 'cypress']) {
    if (deps.has(d)) tools.add(d.replace(/^@biomejs\//, '').replace(/^@playwright\/test$/, 'playwright'));
  }

  // Rust.
  for (const manifest of filesOf('packages', 'cargo')) {
    const dir = dirOf(manifest.path);
    const toml = await reader.toml(manifest.path);
    if (toml === null) continue;
    for (const key of ['dependencies', 'dev-dependencies']) for (const d of keysOf(toml[key])) deps.add(d);
    for (const d of keysOf(dig(toml, 'workspace', 'dependencies'))) deps.add(d);
    const workspace = dig(toml, 'workspace') !== undefined;
    if (workspace) roles.add('monorepo');
    tools.add('cargo');
    // Members of a workspace are covered by the workspace's commands.
    if (dir !== '' && filesOf('packages', 'cargo').some((f) => f.path === 'Cargo.toml')) continue;
    const manifestFlag = dir === '' ? [] : ['--manifest-path', manifest.path];
    const locked = lockIn(dir, 'cargo') ? ['--locked'] : [];
    const all = workspace ? ['--workspace'] : [];
    const why = `${manifest.path}${workspace ? ' ([workspace])' : ''}`;
    offer(['cargo', 'fmt', ...manifestFlag, '--all', '--', '--check'], 'format', 'high', why);
    offer(['cargo', 'clippy', ...manifestFlag, ...all, '--all-targets', ...locked], 'lint', 'medium', why);
    offer(['cargo', 'test', ...manifestFlag, ...all, '--all-targets', ...locked], 'test', 'high', why);
    offer(['cargo', 'build', ...manifestFlag, ...all, ...locked], 'build', 'high', why);
  }

  // Go: a go.work covers its modules; otherwise each module on its own (`go -C dir`).
  const goWork = has('go.work');
  if (goWork) roles.add('monorepo');
  const goMods = filesOf('packages', 'go');
  for (const manifest of goWork ? [{ path: 'go.work' }] : goMods) {
    const dir = dirOf(manifest.path);
    const text = await reader.text(manifest.path);
    for (const d of goRequires(text)) deps.add(d);
    tools.add('go');
    const c = dir === '' ? [] : ['-C', dir];
    const targets = goWork ? goModuleTargets(goMods.map((m) => dirOf(m.path))) : ['./...'];
    offer(['go', ...c, 'build', ...targets], 'build', 'high', manifest.path);
    offer(['go', ...c, 'test', ...targets], 'test', 'high', manifest.path);
    offer(['go', ...c, 'vet', ...targets], 'lint', 'medium', manifest.path);
  }
  if (goWork)
    for (const m of goMods) {
      for (const d of goRequires(await reader.text(m.path))) deps.add(d);
    }
  if (has('.golangci.yml') || has('.golangci.yaml')) offer(['golangci-lint', 'run'], 'lint', 'medium', '.golangci.yml');

  // Python.
  const pyproject = has('pyproject.toml') ? await reader.toml('pyproject.toml') : null;
  if (pyproject !== null) {
    for (const d of (dig(pyproject, 'project', 'dependencies') as unknown[] | undefined) ?? [])
      if (typeof d === 'string') deps.add(d.split(/[\s<>=!~;[]/)[0] as string);
    for (const d of keysOf(dig(pyproject, 'tool', 'poetry', 'dependencies'))) deps.add(d);
  }
  const req = has('requirements.txt') ? await reader.text('requirements.txt') : null;
  if (req !== null)
    for (const line of req.split('\n')) {
      const name = line.trim().split(/[\s<>=!~;[#]/)[0];
      if (name) deps.add(name.toLowerCase());
    }
  if (ecosystems.has('python')) {
    const runner = lockIn('', 'uv')
      ? 'uv'
      : lockIn('', 'poetry') || dig(pyproject, 'tool', 'poetry') !== undefined
        ? 'poetry'
        : lockIn('', 'pipenv') || has('Pipfile')
          ? 'pipenv'
          : lockIn('', 'pdm')
            ? 'pdm'
            : null;
    if (runner) tools.add(runner);
    const run = (argv: string[]) => (runner === null ? ['python', '-m', ...argv] : [runner, 'run', ...argv]);
    if (runner === 'uv') offer(['uv', 'sync'], 'install', 'high', 'uv.lock');
    else if (runner === 'poetry') offer(['poetry', 'install'], 'install', 'high', 'poetry project');
    else if (runner === 'pipenv') offer(['pipenv', 'install', '--dev'], 'install', 'high', 'Pipfile');
    else if (runner === 'pdm') offer(['pdm', 'install'], 'install', 'high', 'pdm.lock');
    else if (has('requirements.txt'))
      offer(['python', '-m', 'pip', 'install', '-r', 'requirements.txt'], 'install', 'medium', 'requirements.txt');
    else if (pyproject !== null) offer(['python', '-m', 'pip', 'install', '-e', '.'], 'install', 'medium', 'pyproject.toml');
    const pytest =
      has('pytest.ini') ||
      dig(pyproject, 'tool', 'pytest') !== undefined ||
      deps.has('pytest') ||
      scan.dirs.has('tests') ||
      has('conftest.py');
    if (pytest) {
      tools.add('pytest');
      offer(run(['pytest']), 'test', 'high', 'pytest configuration or tests directory');
    }
    if (has('ruff.toml') || has('.ruff.toml') || dig(pyproject, 'tool', 'ruff') !== undefined) {
      tools.add('ruff');
      offer(run(['ruff', 'check', '.']), 'lint', 'high', 'ruff configuration');
      offer(run(['ruff', 'format', '--check', '.']), 'format', 'medium', 'ruff configuration');
    }
    if (dig(pyproject, 'tool', 'mypy') !== undefined) {
      tools.add('mypy');
      offer(run(['mypy', '.']), 'check', 'medium', '[tool.mypy] in pyproject.toml');
    }
    if (has('tox.ini')) offer(['tox'], 'test', 'medium', 'tox.ini');
  }

  // .NET.
  const solutions = filesOf('packages', 'dotnet-solution');
  const projects = filesOf('packages', 'dotnet');
  if (solutions.length > 0 || projects.length > 0) {
    tools.add('dotnet');
    const target = solutions[0]?.path ?? (projects.length === 1 ? projects[0]?.path : undefined);
    const args = target === undefined || (!target.includes('/') && solutions.length + projects.length === 1) ? [] : [target];
    const reason = target ?? `${projects.length} project files`;
    if (projects.length > 1) roles.add('monorepo');
    offer(['dotnet', 'restore', ...args], 'install', 'high', reason);
    offer(['dotnet', 'build', ...args, '--no-restore'], 'build', 'high', reason);
    offer(['dotnet', 'test', ...args, '--no-build'], 'test', 'high', reason);
    for (const p of projects) {
      const xml = await reader.xml(p.path);
      const refs = dig(xml, 'Project', 'ItemGroup');
      for (const group of listOf(refs)) {
        const pkgs = dig(group, 'PackageReference');
        for (const ref of listOf(pkgs)) if (typeof ref === 'string') deps.add(ref);
      }
      const sdk = await reader.text(p.path);
      if (sdk?.includes('Microsoft.NET.Sdk.Web')) roles.add('backend');
      if (sdk && /Maui|WindowsDesktop|<UseWPF>|<UseWindowsForms>/.test(sdk)) roles.add(/Maui/.test(sdk) ? 'mobile' : 'desktop');
    }
  }

  // Java: Maven (wrapper first), Gradle (wrapper first).
  const pom = filesOf('packages', 'maven').find((f) => dirOf(f.path) === '') ?? filesOf('packages', 'maven')[0];
  if (pom) {
    const mvn = has('mvnw') ? './mvnw' : 'mvn';
    const dirArgs = dirOf(pom.path) === '' ? [] : ['-f', pom.path];
    tools.add('maven');
    const xml = await reader.xml(pom.path);
    if (dig(xml, 'project', 'modules') !== undefined) roles.add('monorepo');
    const deps2 = dig(xml, 'project', 'dependencies', 'dependency');
    for (const d of listOf(deps2)) {
      const id = str(dig(d, 'artifactId'));
      if (id) deps.add(id);
    }
    offer([mvn, ...dirArgs, '-B', 'verify'], 'test', 'high', pom.path);
    offer([mvn, ...dirArgs, '-B', 'package', '-DskipTests'], 'build', 'high', pom.path);
  }
  const gradle = filesOf('packages', 'gradle').find((f) => dirOf(f.path) === '') ?? filesOf('packages', 'gradle')[0];
  if (gradle) {
    const gw = has('gradlew') ? './gradlew' : 'gradle';
    tools.add('gradle');
    const settings = (await reader.text('settings.gradle')) ?? (await reader.text('settings.gradle.kts'));
    if (settings !== null && /\binclude\s*\(?["']/.test(settings)) roles.add('monorepo');
    for (const build of filesOf('packages', 'gradle')) {
      const text = (await reader.text(build.path)) ?? '';
      if (/com\.android\.(application|library)/.test(text)) roles.add('mobile');
      if (/org\.springframework\.boot|io\.ktor|io\.micronaut|io\.quarkus/.test(text)) roles.add('backend');
    }
    offer([gw, 'build'], 'build', 'high', gradle.path);
    offer([gw, 'test'], 'test', 'high', gradle.path);
  }

  // PHP.
  if (has('composer.json')) {
    const json = await reader.json('composer.json');
    tools.add('composer');
    offer(['composer', 'install'], 'install', lockIn('', 'composer') ? 'high' : 'medium', 'composer.json');
    for (const d of [...keysOf(json?.require), ...keysOf(json?.['require-dev'])]) deps.add(d);
    for (const name of keysOf(json?.scripts)) {
      offer(['composer', 'run-script', name], scriptKind(name), 'high', `script "${name}" in composer.json`);
    }
    if (!keysOf(json?.scripts).includes('test') && (has('phpunit.xml') || has('phpunit.xml.dist'))) {
      tools.add('phpunit');
      offer(['vendor/bin/phpunit'], 'test', 'high', 'phpunit.xml');
    }
  }

  // Dart / Flutter.
  if (has('pubspec.yaml')) {
    const yaml = await reader.yaml('pubspec.yaml');
    const flutter = dig(yaml, 'dependencies', 'flutter') !== undefined;
    const tool = flutter ? 'flutter' : 'dart';
    tools.add(tool);
    for (const d of [...keysOf(yaml?.dependencies), ...keysOf(yaml?.dev_dependencies)]) deps.add(d);
    if (flutter) roles.add('mobile');
    if (dig(yaml, 'workspace') !== undefined || has('melos.yaml')) roles.add('monorepo');
    offer([tool, 'pub', 'get'], 'install', 'high', 'pubspec.yaml');
    offer([tool, 'analyze'], 'lint', 'high', 'pubspec.yaml');
    offer([tool, 'test'], 'test', 'high', 'pubspec.yaml');
  }

  // Ruby.
  if (has('Gemfile') || filesOf('packages', 'gemspec').length > 0) {
    tools.add('bundler');
    const gemfile = (await reader.text('Gemfile')) ?? '';
    for (const m of gemfile.matchAll(/^\s*gem\s+["']([^"']+)["']/gm)) deps.add(m[1] as string);
    offer(['bundle', 'install'], 'install', has('Gemfile') ? 'high' : 'medium', has('Gemfile') ? 'Gemfile' : 'gemspec');
    if (has('Rakefile')) offer(['bundle', 'exec', 'rake'], 'test', 'medium', 'Rakefile');
    if (scan.dirs.has('spec')) offer(['bundle', 'exec', 'rspec'], 'test', 'high', 'spec directory');
    if (deps.has('rails')) roles.add('backend');
    if (has('.rubocop.yml')) offer(['bundle', 'exec', 'rubocop'], 'lint', 'high', '.rubocop.yml');
  }

  // Elixir.
  if (has('mix.exs')) {
    tools.add('mix');
    const text = (await reader.text('mix.exs')) ?? '';
    if (/apps_path:/.test(text)) roles.add('monorepo');
    if (/:phoenix\b/.test(text)) roles.add('backend');
    offer(['mix', 'deps.get'], 'install', 'high', 'mix.exs');
    offer(['mix', 'format', '--check-formatted'], 'format', 'high', 'mix.exs');
    offer(['mix', 'test'], 'test', 'high', 'mix.exs');
  }

  // Deno, Swift, Zig, CMake.
  for (const name of ['deno.json', 'deno.jsonc']) {
    if (!has(name)) continue;
    tools.add('deno');
    const json = await reader.json(name);
    for (const task of keysOf(json?.tasks)) offer(['deno', 'task', task], scriptKind(task), 'high', `task "${task}" in ${name}`);
    offer(['deno', 'test'], 'test', 'medium', name);
  }
  if (has('Package.swift')) {
    tools.add('swift');
    offer(['swift', 'build'], 'build', 'high', 'Package.swift');
    offer(['swift', 'test'], 'test', 'high', 'Package.swift');
  }
  if (has('build.zig')) {
    tools.add('zig');
    offer(['zig', 'build'], 'build', 'high', 'build.zig');
    offer(['zig', 'build', 'test'], 'test', 'medium', 'build.zig');
  }
  if (has('CMakeLists.txt')) {
    tools.add('cmake');
    offer(['cmake', '-S', '.', '-B', 'build'], 'configure', 'high', 'CMakeLists.txt');
    offer(['cmake', '--build', 'build'], 'build', 'high', 'CMakeLists.txt');
    offer(['ctest', '--test-dir', 'build'], 'test', 'medium', 'CMakeLists.txt');
  }

  // Task runners: their real targets.
  for (const name of ['Makefile', 'GNUmakefile', 'makefile']) {
    const text = has(name) ? await reader.text(name) : null;
    if (text === null) continue;
    tools.add('make');
    for (const target of makeTargets(text)) offer(['make', target], scriptKind(target), 'medium', `target "${target}" in ${name}`);
    break;
  }
  for (const name of ['justfile', '.justfile', 'Justfile']) {
    const text = has(name) ? await reader.text(name) : null;
    if (text === null) continue;
    tools.add('just');
    for (const recipe of justRecipes(text)) offer(['just', recipe], scriptKind(recipe), 'medium', `recipe "${recipe}" in ${name}`);
    break;
  }

  // Roles from dependencies and files.
  const any = (list: readonly string[]) => list.some((d) => deps.has(d));
  if (any(WEB_DEPS) || any(RUST_WEB) || has('index.html') || has('public/index.html')) roles.add('web');
  if (any(BACKEND_DEPS) || any(PY_BACKEND) || any(RUST_BACKEND) || any(GO_BACKEND)) roles.add('backend');
  if (any(DESKTOP_DEPS) || has('src-tauri/tauri.conf.json') || has('src-tauri/Cargo.toml')) roles.add('desktop');
  if (any(MOBILE_DEPS) || scan.dirs.has('android') || scan.dirs.has('ios')) roles.add('mobile');
  if (any(GAME_DEPS) || has('project.godot') || (scan.dirs.has('Assets') && scan.dirs.has('ProjectSettings'))) roles.add('game');
  if (any(DATA_DEPS) || scan.files.some((f) => f.kind === 'jupyter')) roles.add('data-science');
  if (any(RUST_EMBEDDED) || has('platformio.ini') || has('memory.x') || (has('.cargo/config.toml') && deps.has('cortex-m')))
    roles.add('embedded');
  if (any(CLOUD_DEPS) || filesOf('infra').some((f) => f.kind !== 'terraform' && f.kind !== 'ansible')) roles.add('cloud');
  if (filesOf('infra').length > 0) roles.add('infra');
  if (filesOf('deploy').length > 0) roles.add('deploy');
  if (filesOf('docs').some((f) => f.kind !== 'readme' && f.kind !== 'license')) roles.add('docs');
  if (filesOf('quality').length > 0 || filesOf('ci').length > 0) roles.add('quality');
  if (filesOf('security').length > 0) roles.add('security');
  const manifestDirs = new Set(scan.files.filter((f) => f.category === 'packages').map((f) => dirOf(f.path)));
  if (manifestDirs.size >= 3) roles.add('monorepo');
  for (const f of filesOf('ci')) tools.add(f.kind);

  return { ecosystems: [...ecosystems].sort(), tools: [...tools].sort(), roles: [...roles].sort(), commands };
}

function installCommand(pm: string, locked: boolean): string[] {
  if (pm === 'npm') return locked ? ['npm', 'ci'] : ['npm', 'install'];
  if (pm === 'pnpm') return locked ? ['pnpm', 'install', '--frozen-lockfile'] : ['pnpm', 'install'];
  if (pm === 'yarn') return locked ? ['yarn', 'install', '--frozen-lockfile'] : ['yarn', 'install'];
  if (pm === 'bun') return locked ? ['bun', 'install', '--frozen-lockfile'] : ['bun', 'install'];
  return [pm, 'install'];
}

/** Runs a package manager command in a nested directory with its own flag. */
function pmInDir(pm: string, dir: string, argv: string[]): string[] {
  const [tool, ...rest] = argv as [string, ...string[]];
  if (pm === 'npm') return [tool, '--prefix', dir, ...rest];
  if (pm === 'pnpm') return [tool, '-C', dir, ...rest];
  return [tool, '--cwd', dir, ...rest];
}

/** Module paths a go.mod or go.work requires. */
function goRequires(text: string | null): string[] {
  return text === null ? [] : [...text.matchAll(/^\s*(?:require\s+)?([\w.-]+\.[a-z]{2,}\/[\w./-]+)\s+v/gm)].map((m) => m[1] as string);
}

/** A parsed XML element that may repeat: the list of its occurrences. */
function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
}

function goModuleTargets(dirs: string[]): string[] {
  return dirs.length === 0 ? ['./...'] : dirs.map((d) => (d === '' ? './...' : `./${d}/...`));
}

/** Explicit make targets (not pattern rules, variables or special targets). */
function makeTargets(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^([A-Za-z0-9][\w.-]*)\s*:(?!=)/gm)) {
    const name = m[1] as string;
    if (!out.includes(name)) out.push(name);
  }
  return out.slice(0, 50);
}

function justRecipes(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^@?([A-Za-z_][\w-]*)(?:[ \t]+[^:=\n]*)?[ \t]*:(?!=)/gm)) {
    const name = m[1] as string;
    if (name !== 'set' && name !== 'alias' && name !== 'export' && !out.includes(name)) out.push(name);
  }
  return out.slice(0, 50);
}
