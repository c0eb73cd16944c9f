// Bundles the CLI into dist/ (one ESM file for fast start-up) plus a tiny version module used by
// the `ah --version` fast path in bin/ah.js.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { build } from 'esbuild';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
// Start clean: stale split chunks from earlier builds would otherwise pile up.
await rm(new URL('../dist/', import.meta.url), { recursive: true, force: true });
await mkdir(new URL('../dist/', import.meta.url), { recursive: true });
await writeFile(new URL('../dist/version.js', import.meta.url), `export const VERSION = ${JSON.stringify(pkg.version)};\n`);

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
  legalComments: 'none',
  define: { __AH_VERSION__: JSON.stringify(pkg.version) },
  // CommonJS dependencies bundled into ESM still call require() for Node built-ins.
  banner: { js: "import { createRequire as __ahCreateRequire } from 'node:module'; const require = __ahCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});
