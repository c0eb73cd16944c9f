// Builds dist/: one CommonJS bundle of the whole CLI and server (dist/ah.cjs), one small Ajv
// standalone validator file per built-in schema (dist/validators/), and two V8 code caches of the
// bundle (dist/ah.cache for the server, dist/ah-cli.cache for every other command) that bin/ah.cjs
// hands to V8 so a start-up compiles almost nothing.
//
// Why CommonJS: Node 20 has no compile cache for ES modules, and its ESM loader alone costs a
// start-up several milliseconds; a CommonJS bundle compiled through vm.Script can use cached code.
// The MCP server and the other rarely used parts stay in the bundle behind esbuild's lazy module
// wrappers (every `await import()` of our own code), so they are parsed but not evaluated.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { systemNode } from './system-node.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
// Start clean: stale validator files from earlier builds would otherwise pile up.
await rm(dist, { recursive: true, force: true });
await mkdir(join(dist, 'validators'), { recursive: true });

// A native addon cannot be bundled; it is loaded from node_modules only when a vault key is needed.
const external = ['@napi-rs/keyring'];

/**
 * `import.meta` in a CommonJS bundle: an object whose `url` is computed when first read (building
 * a file URL costs a start-up a millisecond, and most runs never need it).
 */
const importMetaBanner = "var __ahImportMeta = { get url() { return require('node:url').pathToFileURL(__filename).href; } };";

/** Ajv's compiler is required only for schemas without a precompiled validator (external plugins). */
const lazyAjv = {
  name: 'ah-lazy-ajv',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]catalog[\\/]ajv-loader\.ts$/ }, () => ({
      contents: [
        "export function loadAjv() { return require('ajv/dist/2020.js'); }",
        "export function loadAjvFormats() { return require('ajv-formats'); }",
      ].join('\n'),
      loader: 'js',
      resolveDir: root,
    }));
  },
};

/**
 * The SDK's Node shims module eagerly evaluates its bundled Ajv (2020, 2019, draft-07 and formats)
 * only to offer a default JSON Schema validator, which a low-level Server uses for elicitation
 * results alone. In the bundle the shims export the same validator, loaded on its first use.
 */
const lazySdkValidator = {
  name: 'ah-lazy-sdk-validator',
  setup(b) {
    b.onResolve({ filter: /^@modelcontextprotocol\/server\/_shims$/ }, () => ({ path: 'sdk-shims', namespace: 'ah-lazy' }));
    b.onLoad({ filter: /^sdk-shims$/, namespace: 'ah-lazy' }, () => ({
      contents: [
        "import process from 'node:process';",
        'export { process };',
        'export class DefaultJsonSchemaValidator {',
        '  #ajv; #real;',
        '  constructor(ajv) { this.#ajv = ajv; }',
        '  getValidator(schema) {',
        "    this.#real ??= new (require('@modelcontextprotocol/server/validators/ajv').AjvJsonSchemaValidator)(this.#ajv);",
        '    return this.#real.getValidator(schema);',
        '  }',
        '}',
      ].join('\n'),
      loader: 'js',
      resolveDir: root,
    }));
  },
};

/**
 * Node's heavier built-in modules, required on first use instead of at start-up. A bundle requires
 * every module it imports when it starts, and `ah file read` loaded 78 built-ins, child_process,
 * crypto, net, worker_threads and readline among them, that only other commands use. Each import of
 * one of these gets a stand-in: its keys are the module's own (read here, at build time), and every
 * read of one requires the real module then. `__esModule` is answered without loading anything,
 * because the bundle's interop helper asks it of every module it imports.
 */
const LAZY_BUILTINS = [
  'child_process',
  'crypto',
  'worker_threads',
  'readline',
  'readline/promises',
  'net',
  'tls',
  'http',
  'https',
  'perf_hooks',
  'dgram',
  'dns',
  'zlib',
  'stream',
  // Every one-shot command's own paths use the callback API instead (src/platform/fs-callback.ts).
  'fs/promises',
];
const lazyBuiltins = {
  name: 'ah-lazy-builtins',
  setup(b) {
    const filter = new RegExp(`^(node:)?(${LAZY_BUILTINS.map((m) => m.replace('/', '\\/')).join('|')})$`);
    b.onResolve({ filter }, (args) =>
      // The stand-in's own require is of the real module.
      args.namespace === 'ah-lazy-builtin'
        ? { path: args.path, external: true }
        : { path: args.path.replace(/^node:/, ''), namespace: 'ah-lazy-builtin' },
    );
    b.onLoad({ filter: /.*/, namespace: 'ah-lazy-builtin' }, async (args) => {
      const keys = Object.getOwnPropertyNames(await import(`node:${args.path}`)).filter((k) => k !== 'default');
      const id = JSON.stringify(`node:${args.path}`);
      return {
        contents: [
          `const keys = ${JSON.stringify(keys)};`,
          'let real;',
          `const load = () => (real ??= require(${id}));`,
          'module.exports = new Proxy({}, {',
          "  get: (_, key) => (key === '__esModule' ? undefined : load()[key]),",
          '  has: (_, key) => key in load(),',
          '  ownKeys: () => keys,',
          '  getOwnPropertyDescriptor: (_, key) =>',
          '    keys.includes(key) ? { enumerable: true, configurable: true, get: () => load()[key] } : undefined,',
          '});',
        ].join('\n'),
        loader: 'js',
        resolveDir: root,
      };
    });
  },
};

/**
 * picomatch, required on its first call: only a search with globs compiles one, and its modules'
 * top level cost every other start ~1.7 ms. The stand-in is the package's default export (the one
 * function src/commands/search/globs.ts calls); its own require of the package is bundled as usual.
 */
const lazyPicomatch = {
  name: 'ah-lazy-picomatch',
  setup(b) {
    b.onResolve({ filter: /^picomatch$/ }, (args) =>
      args.namespace === 'ah-lazy-package' ? undefined : { path: 'picomatch', namespace: 'ah-lazy-package' },
    );
    b.onLoad({ filter: /^picomatch$/, namespace: 'ah-lazy-package' }, () => ({
      contents: ['let real;', "module.exports = (...args) => (real ??= require('picomatch'))(...args);"].join('\n'),
      loader: 'js',
      resolveDir: root,
    }));
  },
};

/** Every built-in schema (command inputs and outputs, host command options, job tools). */
async function builtinSchemas() {
  const dir = await mkdtemp(join(tmpdir(), 'ah-build-'));
  try {
    const entry = join(dir, 'schemas.mjs');
    await build({
      stdin: {
        contents: [
          "export { BUILTIN_DOMAINS } from './src/commands/index.ts';",
          "export { bundledDomainObjects } from './src/plugins/bundled/index.ts';",
          "export { HOST_CLI_COMMANDS } from './src/surfaces/cli/host-commands.ts';",
          "export { JOB_TOOL_SCHEMAS } from './src/runtime/job-commands.ts';",
          "export { AJV_OPTIONS, addAjvFormats } from './src/catalog/schema.ts';",
          "export { schemaKey } from './src/catalog/schema-key.ts';",
        ].join('\n'),
        resolveDir: root,
        loader: 'ts',
      },
      outfile: entry,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      banner: {
        js: "import { createRequire as __ahCreateRequire } from 'node:module'; const require = __ahCreateRequire(import.meta.url);",
      },
      logLevel: 'warning',
      external,
      plugins: [lazyAjv],
    });
    const mod = await import(pathToFileURL(entry).href);
    const schemas = [
      ...[...mod.BUILTIN_DOMAINS, ...mod.bundledDomainObjects()].flatMap((m) => m.commands.flatMap((c) => [c.inputSchema, c.outputSchema])),
      ...mod.HOST_CLI_COMMANDS.map((c) => c.inputSchema),
      ...[...mod.JOB_TOOL_SCHEMAS.values()].flatMap((s) => [s.input, s.output]),
    ];
    return { schemas, options: mod.AJV_OPTIONS, addFormats: mod.addAjvFormats, schemaKey: mod.schemaKey };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Ahead-of-time validators: Ajv standalone code compiled with the run-time options and formats,
 * one small CommonJS file per schema (a process parses only the validators it uses), keyed by
 * schemaKey() of the schema's JSON text (src/catalog/schema-key.ts). Returns the module that
 * replaces src/catalog/precompiled.ts in the bundle.
 */
async function precompiledValidatorsModule() {
  const { schemas, options, addFormats, schemaKey } = await builtinSchemas();
  const { Ajv2020 } = await import('ajv/dist/2020.js');
  const standaloneModule = await import('ajv/dist/standalone/index.js');
  const standaloneCode = standaloneModule.default.default ?? standaloneModule.default;
  const ajv = new Ajv2020({ ...options, code: { source: true } });
  addFormats(ajv);
  const files = new Map();
  for (const schema of schemas) {
    const text = JSON.stringify(schema);
    const key = schemaKey(text);
    if (files.has(key)) continue;
    const file = `v${files.size}.cjs`;
    files.set(key, file);
    await build({
      stdin: { contents: standaloneCode(ajv, ajv.compile(JSON.parse(text))), resolveDir: root, loader: 'js' },
      outfile: join(dist, 'validators', file),
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      minify: true,
      legalComments: 'none',
      logLevel: 'warning',
    });
  }
  const map = [...files].map(([key, file]) => `  [${JSON.stringify(key)}, ${JSON.stringify(file)}],`).join('\n');
  return [
    "import { join } from 'node:path';",
    `const files = new Map([\n${map}\n]);`,
    'export const PRECOMPILED_VALIDATORS = {',
    '  get(key) {',
    '    const file = files.get(key);',
    "    return file === undefined ? undefined : require(join(__dirname, 'validators', file));",
    '  },',
    '};',
  ].join('\n');
}

const precompiled = await precompiledValidatorsModule();
const precompiledValidators = {
  name: 'ah-precompiled-validators',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]catalog[\\/]precompiled\.ts$/ }, () => ({ contents: precompiled, loader: 'js', resolveDir: root }));
  },
};

/** One CommonJS bundle of an entry into dist/, with the options every bundle shares. */
function bundleCjs(name, entry, options = {}) {
  return build({
    entryPoints: { [name]: entry },
    outdir: 'dist',
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minifySyntax: true,
    // Less source text to read, copy and hash on every start. Short local names took the bundle
    // from 2.1 to 1.5 MB and its CLI code cache from 1.0 to 0.9 MB: ~500 fewer page faults and
    // ~8 ms off every start on a machine where a fault costs ~11 µs. `node --enable-source-maps
    // bin/ah.cjs` maps stack traces back through dist/ah.cjs.map. AH_BUILD_READABLE=1 keeps names,
    // the layout and esbuild's per-module comments, for profiling.
    minifyWhitespace: !process.env.AH_BUILD_READABLE,
    minifyIdentifiers: !process.env.AH_BUILD_READABLE,
    legalComments: 'none',
    banner: { js: importMetaBanner },
    logLevel: 'warning',
    // jsonc-parser's `main` is a UMD wrapper whose requires esbuild cannot follow; its ES build can be bundled.
    alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
    ...options,
    define: { 'import.meta': '__ahImportMeta', ...options.define },
  });
}

await bundleCjs('ah', 'src/main.ts', {
  sourcemap: 'linked',
  define: { __AH_VERSION__: JSON.stringify(pkg.version) },
  // Ajv's compiler is needed only for schemas without a precompiled validator: loaded from
  // node_modules then, and never parsed at start-up.
  external: [...external, 'ajv/dist/2020.js', 'ajv-formats'],
  plugins: [lazyAjv, lazySdkValidator, precompiledValidators, lazyBuiltins, lazyPicomatch],
});

await wrapAsFunction(join(dist, 'ah.cjs'));

// The search worker: its own small bundle next to the main one (src/commands/search/parallel.ts
// starts it from there).
await bundleCjs('search-worker', 'src/commands/search/search-worker.ts', { plugins: [lazyPicomatch] });

/**
 * Rewrites the bundle as one function expression, so bin/ah.cjs compiles the file's own text. The
 * launcher used to compile Module.wrap(source): a string of three parts that V8 copies into one
 * before it compiles, ~520 freshly touched pages (2 MB) and ~6 ms of every start on a machine
 * where a page fault costs ~11 µs. The text stays a CommonJS module too: required normally (as
 * bin/ah.cjs does where Node has a module compile cache), `this` is the module's exports and the
 * expression calls itself with the loader's arguments; compiled as a script, `this` is the global
 * object and the expression's value is the function, which the launcher calls. The body moves
 * down one line, so the source map gains one empty line first.
 */
async function wrapAsFunction(file) {
  // bin/ah.cjs reads the bundle as Latin-1, which is its text only while every byte is ASCII.
  // esbuild escapes everything else in code (charset ascii); a readable build keeps comments,
  // which may hold some, and those are escaped here (only a readable build's columns after one move).
  const text = (await readFile(file, 'utf8')).replace(/\P{ASCII}/gu, (c) => `\\u{${c.codePointAt(0).toString(16)}}`);
  const comment = text.lastIndexOf('//# sourceMappingURL=');
  const body = comment === -1 ? text : text.slice(0, comment);
  const link = comment === -1 ? '' : text.slice(comment);
  const head = '(function (exports, require, module, __filename, __dirname) {\n';
  const tail = "\n})[this === globalThis ? 'valueOf' : 'apply'](this, this === globalThis ? undefined : arguments);\n";
  await writeFile(file, `${head}${body}${tail}${link}`, 'latin1');
  const mapFile = `${file}.map`;
  if (existsSync(mapFile)) {
    const map = JSON.parse(await readFile(mapFile, 'utf8'));
    map.mappings = `;${map.mappings}`;
    await writeFile(mapFile, JSON.stringify(map));
  }
}

/**
 * The code caches: bin/ah.cjs compiles the bundle with V8's cached data when it matches. Each is
 * made by a real run, so it holds the functions that run used. V8 deserializes a whole cache at
 * every start, so there are two: `ah.cache` from an `mcp serve` over stdio that answers
 * initialize, tools/list and one file read, then sees EOF (the CLI's routing, catalog, runtime
 * and the server), used by `ah mcp serve`; and `ah-cli.cache` from a one-shot `ah ai info`
 * (routing, every domain's descriptors, validation and the CLI's output, a third smaller without
 * the server and the SDK: ~1.5 ms off every other command's start on Node 20). A call that loads
 * one domain (src/shipped-domains.ts) still finds it there; a cache made by a one-domain call
 * left the others to be compiled by every `--help` (+7 ms) for at most 1 ms less elsewhere. A
 * cache V8 rejects (another Node version) only costs a normal compile.
 */
async function writeCodeCaches() {
  const messages = [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'ah-build', version: '0' } },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'ah.file.read', arguments: { path: 'package.json', from: 1, to: 3 } } },
  ];
  await cacheRun('ah.cache', ['mcp', 'serve'], messages, 3);
  await cacheRun('ah-cli.cache', ['--json', 'ai', 'info'], [], null);
}

/**
 * Runs `ah --cwd <root> ...args` with AH_BUILD_CODE_CACHE set, so the launcher writes the cache
 * when the process exits. A server gets `messages` on stdin, which is closed (the server then
 * exits) once the answer to request `lastId` is out.
 */
async function cacheRun(name, args, messages, lastId) {
  const config = await mkdtemp(join(tmpdir(), 'ah-build-cache-'));
  const cacheFile = join(dist, name);
  const env = { ...process.env, AH_CONFIG_DIR: config, HOME: config, AH_BUILD_CODE_CACHE: cacheFile };
  delete env.NODE_OPTIONS;
  const child = spawn(systemNode(), [join(root, 'bin', 'ah.cjs'), '--cwd', root, ...args], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise((resolve) => child.once('close', resolve));
  const answered = new Promise((resolve) => {
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (lastId !== null && stdout.split('\n').some((line) => line.includes(`"id":${lastId}`))) resolve(true);
    });
    child.once('close', (code) => resolve(lastId === null && code === 0));
  });
  if (messages.length > 0) child.stdin.write(`${messages.map((m) => JSON.stringify(m)).join('\n')}\n`);
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const ok = await answered;
  child.stdin.end();
  const code = await exited;
  clearTimeout(timer);
  await rm(config, { recursive: true, force: true });
  if (!ok || code !== 0 || !existsSync(cacheFile)) {
    // Not fatal: without a cache every start compiles the bundle.
    await rm(cacheFile, { force: true });
    process.stderr.write(`build: no code cache ${name} (exit ${code}): ${stderr}\n`);
  }
}

await writeFile(join(dist, 'version.cjs'), `module.exports = ${JSON.stringify(pkg.version)};\n`);
await writeCodeCaches();
