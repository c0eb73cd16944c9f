/**
 * The CLI surface: argv → route → help, or a request for the invoke path (typed commands and host
 * commands alike) → output. Writes nothing itself except through render.ts and errors.ts.
 */
import { resolve } from 'node:path';
import { domainOf } from '../../catalog/descriptor.js';
import { commandPath } from '../../catalog/usage.js';
import { AhError, internalError } from '../../errors.js';
import { type CompletionResult, logCompletion } from '../../logging/completion.js';
import { redactArgv } from '../../logging/redact.js';
import type { EventLog } from '../../logging/types.js';
import type { Env } from '../../platform/paths.js';
import { isDirectory } from '../../platform/paths.js';
import type { Host } from '../../runtime/host.js';
import { type Callable, invoke, type RuntimeCore } from '../../runtime/invoke.js';
import { CREDENTIALS_KEY, parseCommandArgs } from './args.js';
import { printError } from './errors.js';
import { commandHelp, domainHelp, rootHelp } from './help.js';
import type { HostCliCommand, HostCliEnv } from './host-command.js';
import { HOST_CLI_COMMANDS } from './host-commands.js';
import { err, out, renderJson, renderNotices, type Style, styleFor } from './render.js';
import { route } from './route.js';
import { withStdoutOnStderr } from '../../platform/stdout-owner.js';
import { monotonicMs } from '../../platform/clock.js';

/** One CLI process: its argv and how it prints. */
export class CliSession {
  readonly wantsJson: boolean;
  readonly wantsQuiet: boolean;
  private styles: { err?: Style; out?: Style } = {};
  /** Logged argv keeps secrets out unless the user turned redaction off. */
  unredacted = false;

  constructor(
    readonly argv: readonly string[],
    private readonly env: Env,
    readonly started: number,
  ) {
    const options = argv.slice(0, argv.includes('--') ? argv.indexOf('--') : undefined);
    this.wantsJson = options.includes('--json');
    this.wantsQuiet = options.includes('--quiet');
  }

  // Asked on first use: looking at process.stdout or process.stderr makes the stream (about 3 ms
  // for stdout on a pipe), and a command whose output is JSON or a file never needs to know.
  get errStyle(): Style {
    this.styles.err ??= styleFor(process.stderr, this.env);
    return this.styles.err;
  }

  get outStyle(): Style {
    this.styles.out ??= styleFor(process.stdout, this.env);
    return this.styles.out;
  }

  loggedArgv(): string[] {
    return this.unredacted ? [...this.argv] : redactArgv(this.argv);
  }

  /** Prints an error; `log` is given for failures the invoke path never saw (it logs its own). */
  fail(error: unknown, command: string, options: { log?: EventLog; helpCommand?: string } = {}): number {
    // A command's own failures name its domain.
    const domain = command.includes('.') ? domainOf(command) : undefined;
    // A failed call's report (JUnit XML of a failed spec, …) still reaches stdout for the tool that reads it.
    if (error instanceof AhError && error.report !== undefined && !this.wantsJson && !this.wantsQuiet) out(error.report);
    printError(error, { json: this.wantsJson, style: this.errStyle, helpCommand: options.helpCommand, domain });
    if (options.log) this.log(options.log, command, domain ?? 'cli', { ok: false, error: internalError(error) });
    return 1;
  }

  logHelp(log: EventLog): number {
    this.log(log, 'help', 'cli', { ok: true });
    return 0;
  }

  private log(log: EventLog, command: string, domain: string, result: CompletionResult): void {
    const durationMs = monotonicMs() - this.started;
    logCompletion(log, { transport: 'cli', command, parameters: { argv: this.loggedArgv() }, durationMs, domain }, result);
  }
}

function baseCwd(explicit: string | undefined): string {
  const dir = resolve(process.cwd(), explicit ?? '.');
  if (!isDirectory(dir)) {
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

function checkHostFlags(command: HostCliCommand, tail: readonly string[]): void {
  for (const token of tail) {
    if (token === '--') break;
    const name = token.startsWith('--') ? token.slice(2).split('=')[0] : undefined;
    const message = name ? command.removedFlags?.[name] : undefined;
    if (message) throw new AhError({ code: 'INVALID_ARGUMENT', message, hint: 'Use --max-active N.' });
  }
}

/** A host command as the invoke path sees it: validated and logged like any call; prints itself. */
function hostCallable(command: HostCliCommand, env: HostCliEnv): Callable {
  return {
    id: command.id,
    kind: 'host',
    inputSchema: command.inputSchema,
    logOutcome: (o: { exit_code: number }) => ({ exit_code: o.exit_code }),
    run: async (input) => ({ exit_code: await command.run(input, env) }),
  };
}

/** Runs one CLI invocation over an assembled host; resolves to the exit code. */
export async function runCli(session: CliSession, host: Omit<Host, 'cwd' | 'explicitCwd' | 'limit'>): Promise<number> {
  const { catalog, log } = host;
  const snapshot = catalog.snapshot();
  const table = new Map<string, string[]>();
  for (const info of snapshot.domains) table.set(info.domain, []);
  for (const d of snapshot.all) table.get(domainOf(d.id))?.push(d.id);
  for (const h of HOST_CLI_COMMANDS) table.get(domainOf(h.id))?.push(h.id);
  let routed: ReturnType<typeof route>;
  try {
    routed = route(session.argv, { domains: table });
  } catch (error) {
    return session.fail(error, 'help', { log });
  }
  const { globals } = routed;
  if (routed.kind === 'root') {
    if (globals.version && !globals.help) {
      out(`ah ${host.version}`);
      return 0;
    }
    out(rootHelp(snapshot.domains, host.version, session.outStyle));
    return session.logHelp(log);
  }
  if (routed.kind === 'domain') {
    const info = snapshot.domains.find((d) => d.domain === routed.domain);
    if (!info)
      return session.fail(new AhError({ code: 'DOMAIN_NOT_FOUND', message: `'${routed.domain}' is not a command` }), 'help', { log });
    const commands = [
      ...snapshot.all.filter((d) => domainOf(d.id) === info.domain),
      ...HOST_CLI_COMMANDS.filter((h) => domainOf(h.id) === info.domain),
    ].sort((a, b) => a.id.localeCompare(b.id));
    out(domainHelp(info, commands, snapshot.isEnabled(info.domain), session.outStyle));
    return session.logHelp(log);
  }

  const hostCommand = HOST_CLI_COMMANDS.find((h) => h.id === routed.id);
  const descriptor = snapshot.get(routed.id);
  const spec = hostCommand ?? descriptor;
  if (!spec)
    return session.fail(new AhError({ code: 'TYPED_COMMAND_NOT_FOUND', message: `unknown command '${routed.id}'` }), routed.id, { log });
  const helpCommand = commandPath(routed.id);
  let input: Record<string, unknown>;
  let cwd: string;
  try {
    if (hostCommand) checkHostFlags(hostCommand, routed.tail);
    input = parseCommandArgs(spec, routed.tail, globals);
    if (globals.help) {
      const risk = descriptor ? `Risk: ${descriptor.effects.risk}. ${descriptor.effects.impact}` : undefined;
      out(commandHelp({ ...spec, risk }, session.outStyle));
      return session.logHelp(log);
    }
    cwd = baseCwd(globals.cwd);
    if (hostCommand && globals.json && hostCommand.rejectJson) {
      throw new AhError({ code: 'INVALID_ARGUMENT', message: hostCommand.rejectJson });
    }
  } catch (error) {
    return session.fail(error, routed.id, { log, helpCommand });
  }
  const env: HostCliEnv = {
    ...host,
    cwd,
    explicitCwd: globals.cwd !== undefined,
    limit: globals.limit ?? null,
    quiet: globals.quiet,
    json: globals.json,
  };
  const core: RuntimeCore = { snapshot: () => catalog.snapshot(), host: catalog, log, env: host.env };
  if (hostCommand) core.extra = new Map([[hostCommand.id, hostCallable(hostCommand, env)]]);
  // A host command (the server above all) handles SIGINT/SIGTERM itself; a typed command is cancelled.
  const interrupt = new AbortController();
  const onSignal = () => interrupt.abort(new AhError({ code: 'EXECUTION_CANCELLED', message: 'interrupted', operation: 'execution' }));
  if (!hostCommand) {
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  }
  try {
    const { [CREDENTIALS_KEY]: credentials, ...commandInput } = input;
    const call = () =>
      invoke(
        core,
        { commandId: routed.id, arguments: commandInput, credentials },
        {
          transport: 'cli',
          defaults: { cwd, limit: env.limit, timeoutMs: null },
          signal: interrupt.signal,
          log: { parameters: { argv: session.loggedArgv() }, startedAt: session.started },
        },
      );
    // stdout is the renderer's: a command handler's own writes go to stderr (host commands such as
    // mcp serve own stdout themselves).
    const outcome = hostCommand ? await call() : await withStdoutOnStderr(call);
    if (!outcome.ok) return session.fail(outcome.error, routed.id, { helpCommand });
    if (hostCommand) return outcome.data.exit_code as number;
    if (globals.quiet) return 0;
    if (!out(globals.json ? renderJson(outcome.data) : (outcome.render?.() ?? renderJson(outcome.data)))) {
      return session.fail(new AhError({ code: 'OUTPUT_WRITE_FAILED', message: 'could not write the result to stdout' }), routed.id);
    }
    if (outcome.notices.length > 0 && !globals.json) err(renderNotices(outcome.notices, session.errStyle));
    return 0;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
