#!/usr/bin/env node
'use strict';
// The `ah` launcher, CommonJS on purpose (no ESM loader to start). `ah --version` alone is
// answered here without loading the bundle. Everything else runs dist/ah.cjs, compiled with a
// V8 code cache the build wrote next to it when V8 accepts it (dist/ah.cache for `mcp serve`,
// dist/ah-cli.cache for every other command: V8 reads a whole cache at start); on Node versions
// with a module compile cache the bundle is required normally and Node caches its compilation.
// With --enable-source-maps it is required too: Node maps stack traces of required code through
// dist/ah.cjs.map (the bundle's local names are minified), not those of a vm.Script.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`ah ${require('../dist/version.cjs')}\n`);
} else {
  const { join } = require('node:path');
  const bundle = join(__dirname, '..', 'dist', 'ah.cjs');
  const Module = require('node:module');
  const writeCache = process.env.AH_BUILD_CODE_CACHE;
  if (process.sourceMapsEnabled === true && !writeCache) {
    require(bundle);
  } else if (typeof Module.enableCompileCache === 'function' && !writeCache) {
    try {
      Module.enableCompileCache();
    } catch {
      // The compile cache is an optimisation only.
    }
    require(bundle);
  } else {
    runCached(bundle, writeCache, isServe(args) ? 'ah.cache' : 'ah-cli.cache');
  }
}

/**
 * Whether the arguments start the MCP server. A wrong guess (a value that happens to read
 * `mcp serve`) only picks the other cache: both belong to the same bundle.
 */
function isServe(argv) {
  for (let i = 1; i < argv.length; i += 1) if (argv[i] === 'serve' && argv[i - 1] === 'mcp') return true;
  return false;
}

/** Compiles and runs the bundle as the CommonJS module it is, with V8's cached data when usable. */
function runCached(file, writeCache, cacheName) {
  const fs = require('node:fs');
  const vm = require('node:vm');
  const Module = require('node:module');
  const { dirname, join } = require('node:path');
  // The build writes an ASCII bundle (esbuild escapes everything else, and the build fails on a
  // byte over 0x7f), and ASCII read as Latin-1 is the same text at a third of the cost of UTF-8
  // decoding (about 2 ms of every start; checking for ASCII here cost 1.5 ms more).
  const source = fs.readFileSync(file, 'latin1');
  let cachedData;
  if (!writeCache) {
    try {
      cachedData = fs.readFileSync(join(dirname(file), cacheName));
    } catch {
      cachedData = undefined;
    }
  }
  // The build wrote the bundle as one function expression (scripts/build.mjs wrapAsFunction): V8
  // compiles the text as read, with no wrapper to join to it first.
  const script = new vm.Script(source, { filename: file, cachedData });
  // Code compiled by vm.Script has no loader for import(); the bundle imports modules outside
  // itself (external plugins, the keyring addon) through this one (src/platform/import-module.ts).
  globalThis[Symbol.for('aihelper.import')] = (specifier) => import(specifier);
  const mod = new Module(file, module);
  mod.filename = file;
  mod.paths = Module._nodeModulePaths(dirname(file));
  mod.loaded = true;
  require.cache[file] = mod;
  if (writeCache) {
    // The build's cache run: keep every function this run compiled.
    process.once('exit', () => fs.writeFileSync(writeCache, script.createCachedData()));
  }
  script.runInThisContext()(mod.exports, Module.createRequire(file), mod, file, dirname(file));
}
