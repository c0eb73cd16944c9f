/**
 * Composition root: config → log → catalog → the CLI surface (which may start the MCP server).
 * The only module besides platform/paths.ts that reads process.env. Maps every failure to an exit code.
 */
import { defineCatalog } from './catalog/registry.js';
import { createEventLog } from './logging/events.js';
import { type EventLog, NULL_LOG } from './logging/types.js';
import { configRoot, type Env, pluginSettingsPath } from './platform/paths.js';
import { withStdoutOnStderr } from './platform/stdout-owner.js';
import { loadBundledPlugins, loadExternalPlugins } from './plugins/loader.js';
import { readPluginSettings } from './plugins/settings.js';
import { LiveCatalog } from './runtime/live-catalog.js';
import { captureMasterKey } from './secrets/keys.js';
import { createVault } from './secrets/vault.js';
import { CliSession, runCli } from './surfaces/cli/dispatch.js';
import { domainWord } from './surfaces/cli/route.js';
import { BUILTIN_LOADERS, BUNDLED_LOADERS, SHIPPED_NAMES, soleDomain } from './shipped-domains.js';
import { printError } from './surfaces/cli/errors.js';
import { err } from './surfaces/cli/render.js';
import { VERSION } from './version.js';
import { monotonicMs } from './platform/clock.js';

const started = monotonicMs();
// Taken (and deleted from process.env) before the copy below and before anything can spawn a
// child, so no child process or runtime env ever carries the vault key.
const vaultKey = captureMasterKey(process.env);
const env: Env = { ...process.env };
const session = new CliSession(process.argv.slice(2), env, started);

/**
 * Built-in domains, the bundled plugins (through the plugin contract) and external plugin modules
 * (an external module replaces a shipped domain of the same name). A CLI call that names one
 * shipped domain loads only that one (shipped-domains.ts); everything else loads them all.
 */
async function loadCatalog(configDir: string, log: EventLog): Promise<LiveCatalog> {
  // A plugin that prints at import time must not put bytes before an MCP reply or into --json output.
  const external = await withStdoutOnStderr(() => loadExternalPlugins(configDir, SHIPPED_NAMES));
  const overridden = new Set(external.modules.map((m) => m.domain));
  const sole = soleDomain(domainWord(session.argv));
  const wanted = (domain: string) => !overridden.has(domain) && (sole === null || domain === sole);
  const bundledLoaders = BUNDLED_LOADERS.filter((l) => wanted(l.domain));
  const [builtins, bundledExports] = await Promise.all([
    Promise.all(BUILTIN_LOADERS.filter((l) => wanted(l.domain)).map((l) => l.load())),
    Promise.all(bundledLoaders.map((l) => l.load())),
  ]);
  const bundled = loadBundledPlugins(
    bundledExports,
    bundledLoaders.map((l) => l.domain),
  );
  for (const warning of [...bundled.warnings, ...external.warnings]) {
    if (!session.wantsQuiet) err(`ah: warning: ${warning.message}`);
    log.system({
      component: 'plugin_discovery',
      severity: 'warning',
      diagnostic: { code: warning.code, message: warning.message, cause: warning.cause, exit_code_hint: 0 },
    });
  }
  const modules = [...builtins, ...bundled.modules, ...external.modules];
  // Plugin modules were checked by the loader (external examples included); built-in examples are
  // checked by the catalog tests, not at every start.
  const definition = defineCatalog(modules, { verifyExamples: () => false, checked: (m) => m.source !== 'builtin' });
  const settingsPath = pluginSettingsPath(configDir);
  const settings = await readPluginSettings(settingsPath);
  return new LiveCatalog(definition, settings.disabled_domains, settingsPath, createVault({ configDir, key: vaultKey }));
}

async function run(): Promise<number> {
  let configDir: string;
  try {
    configDir = configRoot(env);
  } catch (error) {
    return session.fail(error, 'config', { log: NULL_LOG });
  }
  session.unredacted = env.AH_LOG_UNREDACTED === '1';
  const log = createEventLog({ configDir, unredacted: session.unredacted });
  try {
    let catalog: LiveCatalog;
    try {
      catalog = await loadCatalog(configDir, log);
    } catch (error) {
      return session.fail(error, 'startup', { log });
    }
    return await runCli(session, { env, configDir, catalog, log, version: VERSION });
  } finally {
    await log.flush();
  }
}

run().then(
  (code) => process.exit(code),
  (error: unknown) => {
    printError(error, { json: session.wantsJson, style: session.errStyle });
    process.exit(1);
  },
);
