/**
 * `import()` of a module outside the bundle (external plugins, test fixtures, the keyring addon).
 * bin/ah.cjs runs the bundle through vm.Script (for its code cache), where a plain dynamic import
 * has no loader to call, so the launcher, a normal module, offers its own import() under a
 * registered symbol. From source (tests, tsx) there is no launcher and import() works as usual.
 */
const LAUNCHER_IMPORT = Symbol.for('aihelper.import');

type Importer = (specifier: string) => Promise<unknown>;

export function importModule(specifier: string): Promise<unknown> {
  const launcher = (globalThis as Record<symbol, unknown>)[LAUNCHER_IMPORT] as Importer | undefined;
  return launcher ? launcher(specifier) : import(specifier);
}
