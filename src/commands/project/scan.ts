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
  ...'.git node_modules target dist build .hg .svn .venv venv __pycache__ .tox .mypy_cache'.split(' '),
  ...'.pytest_cache .gradle .dart_tool _build deps vendor bin obj .next .nuxt coverage .terraform'.split(' '),
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

// File names (lower case) per category and kind, space-separated.
const NAMED: Partial<Record<Category, Record<string, string>>> = {
  packages: {
    npm: 'package.json',
    cargo: 'cargo.toml',
    go: 'go.mod',
    'go-workspace': 'go.work',
    python: 'pyproject.toml',
    'python-setuptools': 'setup.py setup.cfg',
    pip: 'requirements.txt',
    pipenv: 'pipfile',
    composer: 'composer.json',
    dart: 'pubspec.yaml',
    bundler: 'gemfile',
    mix: 'mix.exs',
    maven: 'pom.xml',
    gradle: 'build.gradle build.gradle.kts',
    'gradle-settings': 'settings.gradle settings.gradle.kts',
    deno: 'deno.json deno.jsonc',
    cmake: 'cmakelists.txt',
    swift: 'package.swift',
    zig: 'build.zig',
    stack: 'stack.yaml',
    rebar: 'rebar.config',
    'pnpm-workspace': 'pnpm-workspace.yaml',
  },
  config: {
    lerna: 'lerna.json',
    nx: 'nx.json',
    turbo: 'turbo.json',
    typescript: 'tsconfig.json',
    editorconfig: '.editorconfig',
    make: 'makefile gnumakefile',
    just: 'justfile .justfile',
    task: 'taskfile.yml',
    rake: 'rakefile',
    'rust-toolchain': 'rust-toolchain.toml rust-toolchain',
    nvm: '.nvmrc',
    'node-version': '.node-version',
    asdf: '.tool-versions',
    pyenv: '.python-version',
    'dotnet-sdk': 'global.json',
    godot: 'project.godot',
    platformio: 'platformio.ini',
  },
  locks: {
    npm: 'package-lock.json npm-shrinkwrap.json',
    pnpm: 'pnpm-lock.yaml',
    yarn: 'yarn.lock',
    bun: 'bun.lockb bun.lock',
    cargo: 'cargo.lock',
    go: 'go.sum',
    poetry: 'poetry.lock',
    uv: 'uv.lock',
    pipenv: 'pipfile.lock',
    pdm: 'pdm.lock',
    composer: 'composer.lock',
    dart: 'pubspec.lock',
    bundler: 'gemfile.lock',
    mix: 'mix.lock',
    nuget: 'packages.lock.json',
    gradle: 'gradle.lockfile',
    deno: 'deno.lock',
  },
  ci: {
    'gitlab-ci': '.gitlab-ci.yml',
    travis: '.travis.yml',
    'azure-pipelines': 'azure-pipelines.yml',
    jenkins: 'jenkinsfile',
    'bitbucket-pipelines': 'bitbucket-pipelines.yml',
    drone: '.drone.yml',
  },
  docs: {
    mkdocs: 'mkdocs.yml',
    contributing: 'contributing.md',
    'code-of-conduct': 'code_of_conduct.md',
  },
  deploy: {
    docker: 'dockerfile containerfile',
    'docker-compose': 'docker-compose.yml docker-compose.yaml compose.yml compose.yaml',
    procfile: 'procfile',
    fly: 'fly.toml',
    vercel: 'vercel.json',
    netlify: 'netlify.toml',
    'app-engine': 'app.yaml',
    helm: 'chart.yaml',
    kustomize: 'kustomization.yaml',
    render: 'render.yaml',
  },
  infra: {
    pulumi: 'pulumi.yaml',
    serverless: 'serverless.yml',
    'aws-cdk': 'cdk.json',
    ansible: 'ansible.cfg',
    'aws-sam': 'template.yaml',
  },
  quality: {
    biome: 'biome.json biome.jsonc',
    'pre-commit': '.pre-commit-config.yaml',
    clippy: 'clippy.toml',
    rustfmt: 'rustfmt.toml .rustfmt.toml',
    ruff: 'ruff.toml .ruff.toml',
    'golangci-lint': '.golangci.yml .golangci.yaml',
    codecov: 'codecov.yml',
    pytest: 'pytest.ini',
    tox: 'tox.ini',
    rubocop: '.rubocop.yml',
    phpunit: 'phpunit.xml phpunit.xml.dist',
    credo: '.credo.exs',
    'dart-analyzer': 'analysis_options.yaml',
  },
  security: {
    'security-policy': 'security.md',
    renovate: 'renovate.json',
    snyk: '.snyk',
    'cargo-deny': 'deny.toml',
    codeowners: 'codeowners',
  },
};
const EXACT = new Map<string, { category: Category; kind: string }>();
for (const [category, kinds] of Object.entries(NAMED) as [Category, Record<string, string>][])
  for (const [kind, names] of Object.entries(kinds)) for (const name of names.split(' ')) EXACT.set(name, { category, kind });

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

function classify(name: string, rel: string): { category: Category; kind: string }[] {
  const exact = EXACT.get(name.toLowerCase());
  const found = exact === undefined ? [] : [{ ...exact }];
  for (const [re, category, kind] of PATTERNS) {
    if (re.test(rel) && !found.some((f) => f.category === category)) found.push({ category, kind });
  }
  return found;
}

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
