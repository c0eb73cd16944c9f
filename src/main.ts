/**
 * Composition root: config → catalog → runtime → chosen surface. Maps every failure to an exit code.
 * The only module besides platform/paths.ts that reads process.env and process.cwd().
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { domainOf } from './catalog/descriptor.js';
import { defineCatalog } from './catalog/registry.js';
import { compile, describeErrors } from './catalog/schema.js';
import { BUILTIN_DOMAINS } from './commands/index.js';
import { AhError, internalError } from './errors.js';
import { createEventLog } from './logging/events.js';
import { redactArgv } from './logging/redact.js';
import { type EventLog, NULL_LOG } from './logging/types.js';
import { configRoot, pluginSettingsPath } from './platform/paths.js';
import { BUNDLED_PLUGINS } from './plugins/bundled/index.js';
import { loadBundledPlugins, loadExternalPlugins } from './plugins/loader.js';
import { readPluginSettings } from './plugins/settings.js';
import { captureMasterKey } from './secrets/keys.js';
import { createVault } from './secrets/vault.js';
import { completionRecord, executeCall, prepareCall, type RuntimeCore } from './runtime/invoke.js';
import { LiveCatalog } from './runtime/live-catalog.js';
import { CREDENTIALS_KEY, parseCommandArgs } from './surfaces/cli/args.js';
import { printError } from './surfaces/cli/errors.js';
import { commandHelp, domainHelp, rootHelp } from './surfaces/cli/help.js';
import { HOST_CLI_COMMANDS, type HostCliCommand } from './surfaces/cli/host-commands.js';
import { err, out, renderJson, renderNotices, styleFor } from './surfaces/cli/render.js';
import { type Route, route } from './surfaces/cli/route.js';
import { VERSION } from './version.js';

const argv = process.argv.slice(2);
// Taken (and deleted from process.env) before the copy below and before anything can spawn a
// child, so no child process or runtime env ever carries the vault key.
const vaultKey = captureMasterKey(process.env);
const env = { ...process.env };
const errStyle = styleFor(process.stderr, env);
const outStyle = styleFor(process.stdout, env);
const started = performance.now();
const wantsJson = argv.slice(0, argv.includes('--') ? argv.indexOf('--') : undefined).includes('--json');
const wantsQuiet = argv.slice(0, argv.includes('--') ? argv.indexOf('--') : undefined).includes('--quiet');

function fail(error: unknown, log: EventLog, command: string, extra: { helpCommand?: string } = {}): number {
  // A command's own failures name its domain.
  const domain = command.includes('.') ? domainOf(command) : undefined;
  printError(error, { json: wantsJson, style: errStyle, ...extra, ...(domain ? { domain } : {}) });
  log.commandCompleted(
    completionRecord(command, 'cli', { argv: sanitizedArgv() }, performance.now() - started, {
      ok: false,
      error: internalError(error),
    }),
  );
  return 1;
}

let unredacted = false;
function sanitizedArgv(): string[] {
  return unredacted ? [...argv] : redactArgv(argv);
}

function baseCwd(explicit: string | undefined): string {
  const dir = resolve(process.cwd(), explicit ?? '.');
  let ok = false;
  try {
    ok = statSync(dir).isDirectory();
  } catch {
    ok = false;
  }
  if (!ok) {
    throw new AhError({
      code: 'CWD_CHANGE_FAILED',
      message: `cannot use --cwd ${explicit}: not an existing directory`,
      cause: dir,
      hint: 'Check the path passed to --cwd.',
      operation: 'cwd.change',
    });
  }
  return dir;
}

async function run(): Promise<number> {
  let configDir: string;
  try {
    configDir = configRoot(env);
  } catch (error) {
    return fail(error, NULL_LOG, 'config');
  }
  unredacted = env.AH_LOG_UNREDACTED === '1';
  const log = createEventLog({ configDir, unredacted, transport: 'cli' });
  try {
    return await dispatch(configDir, log);
  } finally {
    await log.flush();
  }
}

async function dispatch(configDir: string, log: EventLog): Promise<number> {
  let catalog: LiveCatalog;
  try {
    const bundled = loadBundledPlugins(BUNDLED_PLUGINS);
    const shipped = [...BUILTIN_DOMAINS, ...bundled.modules];
    const external = await loadExternalPlugins(
      configDir,
      shipped.map((m) => m.domain),
    );
    for (const warning of [...bundled.warnings, ...external.warnings]) {
      if (!wantsQuiet) err(`ah: warning: ${warning.message}`);
      log.system({
        component: 'plugin_discovery',
        severity: 'warning',
        diagnostic: { code: warning.code, message: warning.message, cause: warning.cause, exit_code_hint: 0 },
      });
    }
    // An external module replaces the built-in domain of the same name.
    const overridden = new Set(external.modules.map((m) => m.domain));
    const modules = [...shipped.filter((m) => !overridden.has(m.domain)), ...external.modules];
    const definition = defineCatalog(modules, { verifyExamples: (m) => m.source === 'external' });
    const settingsPath = pluginSettingsPath(configDir);
    const settings = await readPluginSettings(settingsPath);
    catalog = new LiveCatalog(definition, settings.disabled_domains, settingsPath, createVault({ configDir, key: vaultKey }));
  } catch (error) {
    return fail(error, log, 'startup');
  }

  let routed: Route;
  const snapshot = catalog.snapshot();
  const table = new Map<string, string[]>();
  for (const info of snapshot.domains) table.set(info.domain, []);
  for (const d of snapshot.all) table.get(domainOf(d.id))?.push(d.id);
  for (const h of HOST_CLI_COMMANDS) table.get(domainOf(h.id))?.push(h.id);
  try {
    routed = route(argv, { domains: table });
  } catch (error) {
    return fail(error, log, 'help');
  }
  const { globals } = routed;
  if (routed.kind === 'root') {
    if (globals.version && !globals.help) {
      out(`ah ${VERSION}`);
      return 0;
    }
    out(rootHelp(snapshot.domains, VERSION, outStyle));
    logHelp(log);
    return 0;
  }
  if (routed.kind === 'domain') {
    const info = snapshot.domains.find((d) => d.domain === routed.domain);
    if (!info) return fail(new AhError({ code: 'DOMAIN_NOT_FOUND', message: `'${routed.domain}' is not a command` }), log, 'help');
    const commands = [
      ...snapshot.all.filter((d) => domainOf(d.id) === info.domain),
      ...HOST_CLI_COMMANDS.filter((h) => domainOf(h.id) === info.domain),
    ].sort((a, b) => a.id.localeCompare(b.id));
    out(domainHelp(info, commands, snapshot.isEnabled(info.domain), outStyle));
    logHelp(log);
    return 0;
  }

  const hostCommand = HOST_CLI_COMMANDS.find((h) => h.id === routed.id);
  const descriptor = snapshot.get(routed.id);
  const spec = hostCommand ?? descriptor;
  if (!spec) return fail(new AhError({ code: 'TYPED_COMMAND_NOT_FOUND', message: `unknown command '${routed.id}'` }), log, routed.id);
  const helpCommand = `ah ${routed.id.split('.').join(' ')}`;
  let input: Record<string, unknown>;
  try {
    if (hostCommand) checkHostFlags(hostCommand, routed.tail);
    input = parseCommandArgs(spec, routed.tail, globals);
  } catch (error) {
    return fail(error, log, routed.id, { helpCommand });
  }
  if (globals.help) {
    const risk = descriptor ? `Risk: ${descriptor.effects.risk}. ${descriptor.effects.impact}` : undefined;
    out(commandHelp({ ...spec, ...(risk ? { risk } : {}) }, outStyle));
    logHelp(log);
    return 0;
  }
  let cwd: string;
  try {
    cwd = baseCwd(globals.cwd);
  } catch (error) {
    return fail(error, log, routed.id, { helpCommand });
  }
  if (hostCommand) {
    if (globals.json && hostCommand.rejectJson) {
      return fail(new AhError({ code: 'INVALID_ARGUMENT', message: hostCommand.rejectJson }), log, routed.id, { helpCommand });
    }
    try {
      const validate = compile(hostCommand.inputSchema);
      if (!validate(input)) {
        const keyword = validate.errors?.[0]?.keyword ?? '';
        throw new AhError({
          code: ['minimum', 'maximum'].includes(keyword) ? 'INVALID_RANGE' : 'INVALID_ARGUMENT',
          message: `invalid options for ${helpCommand}: ${describeErrors(validate.errors, 'options')}`,
        });
      }
      return await hostCommand.run(input, {
        cwd,
        explicitCwd: globals.cwd !== undefined,
        limit: globals.limit ?? null,
        quiet: globals.quiet,
        json: globals.json,
        env,
        configDir,
        catalog,
        log,
        version: VERSION,
      });
    } catch (error) {
      return fail(error, log, routed.id, { helpCommand });
    }
  }

  const core: RuntimeCore = { snapshot: () => catalog.snapshot(), host: catalog, log, env };
  const interrupt = new AbortController();
  const onSignal = () => interrupt.abort(new AhError({ code: 'EXECUTION_CANCELLED', message: 'interrupted', operation: 'execution' }));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const { [CREDENTIALS_KEY]: credentials, ...commandInput } = input;
    const prepared = prepareCall(catalog.snapshot(), {
      commandId: routed.id,
      arguments: commandInput,
      credentials,
      defaults: { cwd, limit: globals.limit ?? null, timeoutMs: null },
      transport: 'cli',
    });
    const outcome = await executeCall(core, prepared, { transport: 'cli', signal: interrupt.signal });
    if (!outcome.ok) return fail(outcome.error, log, routed.id, { helpCommand });
    if (!globals.quiet) {
      if (!out(globals.json ? renderJson(outcome.data) : (outcome.text ?? renderJson(outcome.data)))) {
        return fail(new AhError({ code: 'OUTPUT_WRITE_FAILED', message: 'could not write the result to stdout' }), log, routed.id);
      }
      if (outcome.notices.length > 0 && !globals.json) err(renderNotices(outcome.notices, errStyle));
    }
    log.commandCompleted(
      completionRecord(routed.id, 'cli', { argv: sanitizedArgv() }, performance.now() - started, { ok: true, data: outcome.data }),
    );
    return 0;
  } catch (error) {
    return fail(error, log, routed.id, { helpCommand });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

function checkHostFlags(command: HostCliCommand, tail: readonly string[]): void {
  for (const token of tail) {
    if (token === '--') break;
    const name = token.startsWith('--') ? token.slice(2).split('=')[0] : undefined;
    const message = name ? command.removedFlags?.[name] : undefined;
    if (message) throw new AhError({ code: 'INVALID_ARGUMENT', message, hint: 'Use --max-active N.' });
  }
}

function logHelp(log: EventLog): void {
  log.commandCompleted(completionRecord('help', 'cli', { argv: sanitizedArgv() }, performance.now() - started, { ok: true }));
}

run().then(
  (code) => process.exit(code),
  (error: unknown) => {
    printError(error, { json: wantsJson, style: errStyle });
    process.exit(1);
  },
);
