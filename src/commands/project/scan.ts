/**
 * The project scan shared by detect, commands and version: a bounded-depth walk of the project
 * (skipping .git, node_modules, target, dist, build and the other dependency or output folders),
 * each file classified by name. Manifests are read later, by the parsers in manifests.ts; nothing
 * is executed.
 */
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

export const MAX_DEPTH = 4;
export const MAX_ENTRIES = 20_000;
const SKIP_DIRS = new Set([
  '.git',
  'node_modules',
  'target',
  'dist',
  'build',
  '.hg',
  '.svn',
  '.venv',
  'venv',
  '__pycache__',
  '.tox',
  '.mypy_cache',
  '.pytest_cache',
  '.gradle',
  '.dart_tool',
  '_build',
  'deps',
  'vendor',
  'bin',
  'obj',
  '.next',
  '.nuxt',
  'coverage',
  '.terraform',
]);

export const CATEGORIES = ['packages', 'locks', 'ci', 'docs', 'changelogs', 'deploy', 'infra', 'config', 'quality', 'security'] as const;
export type Category = (typeof CATEGORIES)[number];

export interface FoundFile {
  category: Category;
  kind: string;
  /** Relative to the project root, forward slashes. */
  path: string;
}

export interface Scan {
  /** Every classified file, in walk order (a file can be in more than one category). */
  files: FoundFile[];
  /** Every relative file path seen (for checks such as "has a tests directory"). */
  paths: Set<string>;
  /** Relative directory paths seen. */
  dirs: Set<string>;
  truncated: boolean;
}

type Classifier = (name: string, rel: string) => { category: Category; kind: string }[];

const EXACT: Record<string, [Category, string][]> = {
  'package.json': [['packages', 'npm']],
  'cargo.toml': [['packages', 'cargo']],
  'go.mod': [['packages', 'go']],
  'go.work': [['packages', 'go-workspace']],
  'pyproject.toml': [['packages', 'python']],
  'setup.py': [['packages', 'python-setuptools']],
  'setup.cfg': [['packages', 'python-setuptools']],
  'requirements.txt': [['packages', 'pip']],
  pipfile: [['packages', 'pipenv']],
  'composer.json': [['packages', 'composer']],
  'pubspec.yaml': [['packages', 'dart']],
  gemfile: [['packages', 'bundler']],
  'mix.exs': [['packages', 'mix']],
  'pom.xml': [['packages', 'maven']],
  'build.gradle': [['packages', 'gradle']],
  'build.gradle.kts': [['packages', 'gradle']],
  'settings.gradle': [['packages', 'gradle-settings']],
  'settings.gradle.kts': [['packages', 'gradle-settings']],
  'deno.json': [['packages', 'deno']],
  'deno.jsonc': [['packages', 'deno']],
  'cmakelists.txt': [['packages', 'cmake']],
  'package.swift': [['packages', 'swift']],
  'build.zig': [['packages', 'zig']],
  'stack.yaml': [['packages', 'stack']],
  'rebar.config': [['packages', 'rebar']],
  'pnpm-workspace.yaml': [['packages', 'pnpm-workspace']],
  'lerna.json': [['config', 'lerna']],
  'nx.json': [['config', 'nx']],
  'turbo.json': [['config', 'turbo']],
  'package-lock.json': [['locks', 'npm']],
  'npm-shrinkwrap.json': [['locks', 'npm']],
  'pnpm-lock.yaml': [['locks', 'pnpm']],
  'yarn.lock': [['locks', 'yarn']],
  'bun.lockb': [['locks', 'bun']],
  'bun.lock': [['locks', 'bun']],
  'cargo.lock': [['locks', 'cargo']],
  'go.sum': [['locks', 'go']],
  'poetry.lock': [['locks', 'poetry']],
  'uv.lock': [['locks', 'uv']],
  'pipfile.lock': [['locks', 'pipenv']],
  'pdm.lock': [['locks', 'pdm']],
  'composer.lock': [['locks', 'composer']],
  'pubspec.lock': [['locks', 'dart']],
  'gemfile.lock': [['locks', 'bundler']],
  'mix.lock': [['locks', 'mix']],
  'packages.lock.json': [['locks', 'nuget']],
  'gradle.lockfile': [['locks', 'gradle']],
  'deno.lock': [['locks', 'deno']],
  '.gitlab-ci.yml': [['ci', 'gitlab-ci']],
  '.travis.yml': [['ci', 'travis']],
  'azure-pipelines.yml': [['ci', 'azure-pipelines']],
  jenkinsfile: [['ci', 'jenkins']],
  'bitbucket-pipelines.yml': [['ci', 'bitbucket-pipelines']],
  '.drone.yml': [['ci', 'drone']],
  'mkdocs.yml': [['docs', 'mkdocs']],
  'contributing.md': [['docs', 'contributing']],
  'code_of_conduct.md': [['docs', 'code-of-conduct']],
  dockerfile: [['deploy', 'docker']],
  containerfile: [['deploy', 'docker']],
  'docker-compose.yml': [['deploy', 'docker-compose']],
  'docker-compose.yaml': [['deploy', 'docker-compose']],
  'compose.yml': [['deploy', 'docker-compose']],
  'compose.yaml': [['deploy', 'docker-compose']],
  procfile: [['deploy', 'procfile']],
  'fly.toml': [['deploy', 'fly']],
  'vercel.json': [['deploy', 'vercel']],
  'netlify.toml': [['deploy', 'netlify']],
  'app.yaml': [['deploy', 'app-engine']],
  'chart.yaml': [['deploy', 'helm']],
  'kustomization.yaml': [['deploy', 'kustomize']],
  'render.yaml': [['deploy', 'render']],
  'pulumi.yaml': [['infra', 'pulumi']],
  'serverless.yml': [['infra', 'serverless']],
  'cdk.json': [['infra', 'aws-cdk']],
  'ansible.cfg': [['infra', 'ansible']],
  'template.yaml': [['infra', 'aws-sam']],
  'tsconfig.json': [['config', 'typescript']],
  '.editorconfig': [['config', 'editorconfig']],
  makefile: [['config', 'make']],
  gnumakefile: [['config', 'make']],
  justfile: [['config', 'just']],
  '.justfile': [['config', 'just']],
  'taskfile.yml': [['config', 'task']],
  rakefile: [['config', 'rake']],
  'rust-toolchain.toml': [['config', 'rust-toolchain']],
  'rust-toolchain': [['config', 'rust-toolchain']],
  '.nvmrc': [['config', 'nvm']],
  '.node-version': [['config', 'node-version']],
  '.tool-versions': [['config', 'asdf']],
  '.python-version': [['config', 'pyenv']],
  'global.json': [['config', 'dotnet-sdk']],
  'project.godot': [['config', 'godot']],
  'platformio.ini': [['config', 'platformio']],
  'biome.json': [['quality', 'biome']],
  'biome.jsonc': [['quality', 'biome']],
  '.pre-commit-config.yaml': [['quality', 'pre-commit']],
  'clippy.toml': [['quality', 'clippy']],
  'rustfmt.toml': [['quality', 'rustfmt']],
  '.rustfmt.toml': [['quality', 'rustfmt']],
  'ruff.toml': [['quality', 'ruff']],
  '.ruff.toml': [['quality', 'ruff']],
  '.golangci.yml': [['quality', 'golangci-lint']],
  '.golangci.yaml': [['quality', 'golangci-lint']],
  'codecov.yml': [['quality', 'codecov']],
  'pytest.ini': [['quality', 'pytest']],
  'tox.ini': [['quality', 'tox']],
  '.rubocop.yml': [['quality', 'rubocop']],
  'phpunit.xml': [['quality', 'phpunit']],
  'phpunit.xml.dist': [['quality', 'phpunit']],
  '.credo.exs': [['quality', 'credo']],
  'analysis_options.yaml': [['quality', 'dart-analyzer']],
  'security.md': [['security', 'security-policy']],
  'renovate.json': [['security', 'renovate']],
  '.snyk': [['security', 'snyk']],
  'deny.toml': [['security', 'cargo-deny']],
  codeowners: [['security', 'codeowners']],
};

const PATTERNS: [RegExp, Category, string][] = [
  [/^\.github\/workflows\/[^/]+\.ya?ml$/, 'ci', 'github-actions'],
  [/^\.circleci\/config\.ya?ml$/, 'ci', 'circleci'],
  [/^\.github\/dependabot\.ya?ml$/, 'security', 'dependabot'],
  [/(^|\/)readme(\.[a-z]+)?$/i, 'docs', 'readme'],
  [/^docs?\/.+\.(md|mdx|rst|adoc|txt)$/i, 'docs', 'docs'],
  [/(^|\/)(changelog|changes|history|news|releases?)(\.[a-z]+)?$/i, 'changelogs', 'changelog'],
  [/(^|\/)license(\.[a-z]+)?$/i, 'docs', 'license'],
  [/\.gemspec$/, 'packages', 'gemspec'],
  [/\.(cs|fs|vb)proj$/, 'packages', 'dotnet'],
  [/\.sln$/, 'packages', 'dotnet-solution'],
  [/\.cabal$/, 'packages', 'cabal'],
  [/\.tf$/, 'infra', 'terraform'],
  [/^dockerfile\./i, 'deploy', 'docker'],
  [/\.dockerfile$/i, 'deploy', 'docker'],
  [/(^|\/)\.eslintrc(\.[a-z]+)?$|(^|\/)eslint\.config\.[cm]?[jt]s$/, 'quality', 'eslint'],
  [/(^|\/)\.prettierrc(\.[a-z]+)?$|(^|\/)prettier\.config\.[cm]?[jt]s$/, 'quality', 'prettier'],
  [/(^|\/)vitest\.config\.[cm]?[jt]s$/, 'quality', 'vitest'],
  [/(^|\/)jest\.config\.[cm]?[jt]s(on)?$/, 'quality', 'jest'],
  [/(^|\/)(vite|webpack|rollup|next|nuxt|svelte|astro)\.config\.[cm]?[jt]s$/, 'config', 'bundler'],
  [/(^|\/)(k8s|kubernetes|manifests|helm)\/.+\.ya?ml$/, 'deploy', 'kubernetes'],
  [/\.ipynb$/, 'config', 'jupyter'],
];

const classify: Classifier = (name, rel) => {
  const found: { category: Category; kind: string }[] = [];
  for (const [category, kind] of EXACT[name.toLowerCase()] ?? []) found.push({ category, kind });
  for (const [re, category, kind] of PATTERNS) {
    if (re.test(rel) && !found.some((f) => f.category === category)) found.push({ category, kind });
  }
  return found;
};

/** Hidden directories that hold project files worth classifying. */
const HIDDEN_ALLOWED = new Set(['.github', '.circleci', '.gitlab', '.ci', '.devcontainer']);

export async function scanProject(root: string, signal: AbortSignal): Promise<Scan> {
  const scan: Scan = { files: [], paths: new Set(), dirs: new Set(), truncated: false };
  let entries = 0;
  const walk = async (dir: string, rel: string, depth: number): Promise<void> => {
    if (signal.aborted) throw signal.reason;
    let children: Dirent[];
    try {
      children = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: Dirent[] = [];
    for (const child of children) {
      if (entries >= MAX_ENTRIES) {
        scan.truncated = true;
        return;
      }
      entries += 1;
      const childRel = rel === '' ? child.name : `${rel}/${child.name}`;
      // Symlinks are not followed: they could lead out of the project or into a cycle.
      if (child.isDirectory()) {
        if (SKIP_DIRS.has(child.name) || (child.name.startsWith('.') && !HIDDEN_ALLOWED.has(child.name))) continue;
        scan.dirs.add(childRel);
        subdirs.push(child);
      } else if (child.isFile()) {
        scan.paths.add(childRel);
        for (const { category, kind } of classify(child.name, childRel)) scan.files.push({ category, kind, path: childRel });
      }
    }
    if (depth >= MAX_DEPTH) return;
    for (const sub of subdirs) await walk(join(dir, sub.name), rel === '' ? sub.name : `${rel}/${sub.name}`, depth + 1);
  };
  await walk(root, '', 0);
  return scan;
}

/** The directory part of a relative path ('' at the root). */
export function dirOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}
