import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testContext } from '../../../test/helpers/context.js';
import { call } from '../../../test/helpers/git.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { writeFileSync } from 'node:fs';
import { commands } from './commands.js';
import { detect } from './detect.js';
import { version } from './version.js';

const FIXTURES = join(import.meta.dirname, '../../../test/fixtures/project');
const REPO = join(import.meta.dirname, '../../..');
const ctx = (extra: { limit?: number } = {}) => testContext({ cwd: FIXTURES, ...extra });
const argvs = (list: { command: string[] }[]) => list.map((c) => c.command.join(' '));

describe('project on this repository', () => {
  it('suggests its own npm test, from package.json and package-lock.json', async () => {
    const out = await call(commands, {}, testContext({ cwd: REPO }));
    expect(out.ecosystems).toContain('node');
    expect(out.tools).toEqual(expect.arrayContaining(['npm', 'typescript', 'biome', 'vitest']));
    expect(out.commands).toContainEqual({
      command: ['npm', 'test'],
      kind: 'test',
      confidence: 'high',
      reason: 'script "test" in package.json',
    });
    expect(out.commands[0]).toEqual({ command: ['npm', 'ci'], kind: 'install', confidence: 'high', reason: 'npm lock file' });
    expect(commands.render?.(out)).toContain('test     npm test');
  });

  it('detects its files by category and its version', async () => {
    const out = await call(detect, {}, testContext({ cwd: REPO }));
    expect(out.files.packages).toContainEqual({ kind: 'npm', path: 'package.json' });
    expect(out.files.locks).toContainEqual({ kind: 'npm', path: 'package-lock.json' });
    expect(out.files.docs).toContainEqual({ kind: 'readme', path: 'README.md' });
    expect(out.package_files).toEqual(out.files.packages);
    expect(out.versions[0]).toMatchObject({ kind: 'npm', path: 'package.json', name: 'aihelper', confidence: 'high' });
    // node_modules, dist and .git are never entered.
    expect(out.files.packages.some((f) => /node_modules|dist\//.test(f.path))).toBe(false);
  });
});

describe('project fixtures: one small monorepo per ecosystem', () => {
  it('node with pnpm workspaces: pnpm chosen by lock file, real scripts, roles from dependencies', async () => {
    const out = await call(detect, { path: 'node-pnpm' }, ctx());
    expect(out).toMatchObject({ root: 'node-pnpm', ecosystems: ['node'] });
    expect(out.roles).toEqual(expect.arrayContaining(['monorepo', 'web', 'backend', 'quality']));
    expect(out.files.ci).toEqual([{ kind: 'github-actions', path: '.github/workflows/ci.yml' }]);
    expect(out.changelog_files).toEqual([{ kind: 'changelog', path: 'CHANGELOG.md' }]);
    expect(argvs(out.commands)).toEqual(['pnpm install --frozen-lockfile', 'pnpm run build', 'pnpm test', 'pnpm run lint', 'pnpm run dev']);
    expect(out.versions.map((v) => `${v.path} ${v.name} ${v.version}`)).toEqual([
      'package.json shop 2.1.0',
      'packages/api/package.json @shop/api 2.0.3',
      'packages/web/package.json @shop/web 2.1.0',
    ]);
  });

  it('rust workspace: cargo commands over the workspace, inherited member versions', async () => {
    const out = await call(commands, { path: 'rust-workspace' }, ctx());
    expect(argvs(out.commands)).toEqual([
      'cargo fmt --all -- --check',
      'cargo clippy --workspace --all-targets --locked',
      'cargo test --workspace --all-targets --locked',
      'cargo build --workspace --locked',
    ]);
    expect(out.roles).toEqual(expect.arrayContaining(['monorepo', 'backend', 'security']));
    const versions = await call(version, { path: 'rust-workspace' }, ctx());
    expect(versions.versions).toEqual([
      { kind: 'cargo', path: 'Cargo.toml', name: null, version: '0.4.2', confidence: 'high' },
      { kind: 'cargo', path: 'crates/cli/Cargo.toml', name: 'shop-cli', version: '0.1.0', confidence: 'high' },
      { kind: 'cargo', path: 'crates/core/Cargo.toml', name: 'shop-core', version: '0.4.2', confidence: 'medium' },
    ]);
  });

  it('go workspace, python with uv, .NET solution, Maven, Gradle', async () => {
    const go = await call(commands, { path: 'go-work' }, ctx());
    expect(argvs(go.commands)).toEqual([
      'go build ./api/... ./worker/...',
      'go test ./api/... ./worker/...',
      'go vet ./api/... ./worker/...',
    ]);
    expect(go.roles).toEqual(expect.arrayContaining(['backend', 'deploy', 'monorepo']));
    const py = await call(commands, { path: 'python-uv' }, ctx());
    expect(argvs(py.commands)).toEqual(['uv sync', 'uv run pytest', 'uv run ruff check .', 'uv run ruff format --check .']);
    expect(py.roles).toEqual(expect.arrayContaining(['backend', 'data-science']));
    const dotnet = await call(detect, { path: 'dotnet' }, ctx());
    expect(argvs(dotnet.commands)).toEqual([
      'dotnet restore Shop.sln',
      'dotnet build Shop.sln --no-restore',
      'dotnet test Shop.sln --no-build',
    ]);
    expect(dotnet.versions[0]).toEqual({ kind: 'dotnet', path: 'src/App/App.csproj', name: 'App', version: '3.2.1', confidence: 'high' });
    const maven = await call(detect, { path: 'java-maven' }, ctx());
    expect(argvs(maven.commands)).toEqual(['./mvnw -B verify', './mvnw -B package -DskipTests']);
    expect(maven.versions.map((v) => [v.name, v.version, v.confidence])).toEqual([
      ['shop-parent', '1.7.0', 'high'],
      ['shop-core', '1.7.0', 'medium'],
    ]);
    const gradle = await call(detect, { path: 'java-gradle' }, ctx());
    expect(argvs(gradle.commands)).toEqual(['./gradlew build', './gradlew test']);
    expect(gradle.roles).toEqual(expect.arrayContaining(['monorepo', 'backend']));
    expect(gradle.versions[0]).toEqual({ kind: 'gradle', path: 'build.gradle.kts', name: 'shop', version: '0.9.0', confidence: 'medium' });
  });

  it('PHP, Dart/Flutter, Ruby gem, Elixir umbrella', async () => {
    const php = await call(detect, { path: 'php-composer' }, ctx());
    expect(argvs(php.commands)).toEqual(['composer install', 'composer run-script test', 'composer run-script lint']);
    expect(php.versions).toEqual([{ kind: 'composer', path: 'composer.json', name: 'acme/shop', version: '5.0.1', confidence: 'high' }]);
    const dart = await call(detect, { path: 'dart-flutter' }, ctx());
    expect(argvs(dart.commands)).toEqual(['flutter pub get', 'flutter analyze', 'flutter test']);
    expect(dart.roles).toContain('mobile');
    expect(dart.versions[0]).toMatchObject({ name: 'shop_app', version: '1.0.0+3' });
    const ruby = await call(detect, { path: 'ruby-gem' }, ctx());
    expect(argvs(ruby.commands)).toEqual(['bundle install', 'bundle exec rake', 'bundle exec rspec']);
    expect(ruby.versions).toEqual([{ kind: 'gemspec', path: 'shop.gemspec', name: 'shop', version: '0.2.0', confidence: 'medium' }]);
    const elixir = await call(detect, { path: 'elixir-umbrella' }, ctx());
    expect(argvs(elixir.commands)).toEqual(['mix deps.get', 'mix format --check-formatted', 'mix test']);
    expect(elixir.roles).toContain('monorepo');
    expect(elixir.versions.map((v) => `${v.path} ${v.name} ${v.version}`)).toEqual(['mix.exs null 0.5.0', 'apps/web/mix.exs web 0.5.0']);
  });

  it('version honours the limit; bad paths fail with their codes; broken manifests degrade', async () => {
    const out = await call(version, { path: 'node-pnpm' }, ctx({ limit: 1 }));
    expect(out).toMatchObject({ version_count: 3, truncated: true, versions: [{ path: 'package.json' }] });
    await expect(call(detect, { path: 'nope' }, ctx())).rejects.toMatchObject({ code: 'PATH_NOT_FOUND' });
    await expect(call(detect, { path: 'node-pnpm/package.json' }, ctx())).rejects.toMatchObject({ code: 'PATH_INVALID_TYPE' });
    const dir = tempDir();
    writeFileSync(join(dir, 'package.json'), '{ not json');
    writeFileSync(join(dir, 'Cargo.toml'), '[package\nname = ');
    const broken = await call(detect, {}, testContext({ cwd: dir }));
    expect(broken.ecosystems).toEqual(['node', 'rust']);
    expect(broken.versions).toEqual([]);
  });

  it('classifies files named like Object.prototype members as nothing', async () => {
    const dir = tempDir();
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) writeFileSync(join(dir, name), 'x');
    writeFileSync(join(dir, 'go.mod'), 'module example.com/m\n');
    const out = await call(detect, {}, testContext({ cwd: dir }));
    expect(out.files.packages).toEqual([{ kind: 'go', path: 'go.mod' }]);
    expect(Object.values(out.files).flat()).toHaveLength(1);
  });
});
