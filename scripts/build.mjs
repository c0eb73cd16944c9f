// Bundles the CLI into dist/ (one ESM file for fast start-up) plus a tiny version module used by
// the `ah --version` fast path in bin/ah.js.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
// Start clean: stale split chunks from earlier builds would otherwise pile up.
await rm(new URL('../dist/', import.meta.url), { recursive: true, force: true });
await mkdir(new URL('../dist/', import.meta.url), { recursive: true });
await writeFile(new URL('../dist/version.js', import.meta.url), `export const VERSION = ${JSON.stringify(pkg.version)};\n`);

// CommonJS dependencies bundled into ESM still call require() for Node built-ins.
const requireBanner =
  "import { createRequire as __ahCreateRequire } from 'node:module'; const require = __ahCreateRequire(import.meta.url);";
// A native addon cannot be bundled; it is loaded from node_modules only when a vault key is needed.
const external = ['@napi-rs/keyring'];

/** Ajv is required lazily in the bundle: esbuild keeps a bundled require() where it is called. */
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
 * Ahead-of-time option validators for the host CLI commands: Ajv standalone code compiled from
 * HOST_CLI_COMMANDS with the run-time Ajv options and formats, so `ah mcp serve` starts without
 * loading Ajv. Same schemas, same options, same error objects as a run-time compile.
 */
async function hostValidatorsModule() {
  const dir = await mkdtemp(join(tmpdir(), 'ah-build-'));
  try {
    const entry = join(dir, 'host-schemas.mjs');
    await build({
      stdin: {
        contents: [
          "export { HOST_CLI_COMMANDS } from './src/surfaces/cli/host-commands.ts';",
          "export { AJV_OPTIONS, addAjvFormats, toJsonSchema } from './src/catalog/schema.ts';",
        ].join('\n'),
        resolveDir: root,
        loader: 'ts',
      },
      outfile: entry,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      banner: { js: requireBanner },
      logLevel: 'warning',
      external,
      plugins: [lazyAjv],
    });
    const { HOST_CLI_COMMANDS, AJV_OPTIONS, addAjvFormats, toJsonSchema } = await import(pathToFileURL(entry).href);
    const { Ajv2020 } = await import('ajv/dist/2020.js');
    const standaloneModule = await import('ajv/dist/standalone/index.js');
    const standaloneCode = standaloneModule.default.default ?? standaloneModule.default;
    const ajv = new Ajv2020({ ...AJV_OPTIONS, code: { source: true, esm: true } });
    addAjvFormats(ajv);
    const names = {};
    const ids = [];
    HOST_CLI_COMMANDS.forEach((command, index) => {
      const id = `ah-host-options:${command.id}`;
      ajv.addSchema({ ...toJsonSchema(command.inputSchema), $id: id });
      names[`v${index}`] = id;
      ids.push([command.id, `v${index}`]);
    });
    const code = standaloneCode(ajv, names);
    const map = ids.map(([id, name]) => `  ${JSON.stringify(id)}: ${name},`).join('\n');
    return `${code}\nexport const PRECOMPILED_HOST_VALIDATORS = {\n${map}\n};\n`;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const hostValidators = await hostValidatorsModule();

/** The precompiled host validators replace src/surfaces/cli/host-validators.ts in the bundle. */
const precompiledHostValidators = {
  name: 'ah-host-validators',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]surfaces[\\/]cli[\\/]host-validators\.ts$/ }, () => ({
      contents: hostValidators,
      loader: 'js',
      resolveDir: root,
    }));
  },
};

await build({
  entryPoints: { ah: 'src/main.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  sourcemap: 'linked',
  minifySyntax: true,
  // Less source text to parse on every start; names stay readable (no identifier minification).
  // AH_BUILD_READABLE=1 keeps the layout and esbuild's per-module comments, for profiling.
  minifyWhitespace: !process.env.AH_BUILD_READABLE,
  legalComments: 'none',
  define: { __AH_VERSION__: JSON.stringify(pkg.version) },
  banner: { js: requireBanner },
  logLevel: 'warning',
  external,
  plugins: [lazyAjv, lazySdkValidator, precompiledHostValidators],
});
