#!/usr/bin/env node
// Thin shim. `ah --version` / `ah -V` alone is answered here without loading the catalog bundle,
// so the answer costs little more than Node's own start-up.
import module from 'node:module';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { VERSION } = await import('../dist/version.js');
  process.stdout.write(`ah ${VERSION}\n`);
} else {
  if (typeof module.enableCompileCache === 'function') {
    try {
      module.enableCompileCache();
    } catch {
      // The compile cache is an optimisation only.
    }
  }
  await import('../dist/ah.js');
}
