// Import-cycle check for the TypeScript sources (run by scripts/test.mjs as its own step).
// Type-only and dynamic imports count: a type import still ties two modules' designs together,
// and a dynamic import is a real runtime edge, so neither may close a loop.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-import-cycles',
      severity: 'error',
      comment: 'Modules in src/ form a directed graph: break the loop by moving the shared piece down a layer.',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: ['node_modules', '\\.test\\.ts$'] },
    doNotFollow: { path: 'node_modules' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'] },
  },
};
