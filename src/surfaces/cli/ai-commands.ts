/**
 * `ah ai install|uninstall|status`: CLI-only host commands that connect ah to agent clients (they
 * edit the user's agent configs, so they are not MCP tools). The logic is in src/agents; this file
 * parses the choice, decides between the interactive and the flag-driven flow, and prints.
 */
import { realpathSync } from 'node:fs';
import { RootObject, Type } from '../../catalog/schema.js';
import { AhError } from '../../errors.js';
import type { AgentContext } from '../../agents/context.js';
import type { AiDeps, RunOutcome } from '../../agents/run-install.js';
import type { TargetArg } from '../../agents/select.js';
import { type AllReport, type Report, type Scope, TARGETS, type Transport } from '../../agents/types.js';
import type { HostCliCommand, HostCliEnv } from './host-command.js';
import { err, out, renderJson } from './render.js';

const TARGET_ARG = Type.Union(
  [...TARGETS, 'all'].map((t) => Type.Literal(t)),
  { description: `Agent: ${TARGETS.join(', ')} or all` },
);
const SCOPE = Type.Union([Type.Literal('local'), Type.Literal('project'), Type.Literal('user')], {
  description: 'local (claude only), project or user; default: the agent’s own default',
});

/** The running ah as the agent should start it: bin/ah.cjs of this install, symlinks resolved. */
function runningAh(): string {
  const script = process.argv[1] ?? '';
  try {
    return realpathSync(script);
  } catch {
    return script;
  }
}

async function deps(env: HostCliEnv, dryRun: boolean): Promise<AiDeps> {
  const { contextFor } = await import('../../agents/context.js');
  const script = runningAh();
  const ctx: AgentContext = contextFor({ env: env.env, cwd: env.cwd, script, node: process.execPath, dryRun });
  return {
    ctx,
    catalog: env.catalog.snapshot(),
    managed: { env: env.env, version: env.version, configDir: env.configDir, script, node: process.execPath },
  };
}

function wrap<R extends Report>(command: Report['command'], reports: R[], dryRun: boolean, warnings: string[]): AllReport<R> {
  return { command, schema_version: 1, target: 'all', changed: reports.some((r) => r.changed), dry_run: dryRun, reports, warnings };
}

/** Prints the outcome: JSON (one report, or the `all` wrapper) or text; summary lines for a dry run. */
async function print(
  env: HostCliEnv,
  target: TargetArg,
  outcome: RunOutcome,
  command: Report['command'],
  dryRun: boolean,
): Promise<number> {
  const { reportText } = await import('../../agents/render.js');
  for (const w of [...outcome.warnings, ...outcome.reports.flatMap((r) => r.warnings.map((x) => `${r.target}: ${x}`))])
    err(`warning: ${w}`);
  if (dryRun && !env.quiet) {
    const lines = ['dry run: nothing was changed; a real run would do this:', ...outcome.summary];
    // With --json stdout is the report's; the plan goes to stderr.
    (env.json ? err : out)(lines.join('\n'));
  }
  if (!env.quiet) {
    if (env.json) out(renderJson(target === 'all' ? wrap(command, outcome.reports, dryRun, outcome.warnings) : outcome.reports[0]));
    else out(outcome.reports.flatMap(reportText).join('\n'));
  }
  if (outcome.error) throw outcome.error;
  return 0;
}

function usage(message: string): AhError {
  return new AhError({ code: 'INVALID_ARGUMENT', message, hint: "See 'ah ai install --help'.", operation: 'ai.install' });
}

const CHOOSING = ['scope', 'transport', 'url', 'mcp_only', 'rules_only', 'yes', 'dry_run'] as const;

const install: HostCliCommand = {
  id: 'ai.install',
  title: 'Connect an agent to ah',
  description:
    'Register the aihelper MCP server with an agent (claude, codex, gemini, cursor, copilot, copilot-cli, opencode, or all present) and add the ah rules block to its instructions file. Idempotent; --dry-run shows every command and file change; interactive on a terminal.',
  inputSchema: RootObject({
    target: TARGET_ARG,
    scope: Type.Optional(SCOPE),
    transport: Type.Optional(
      Type.Union([Type.Literal('stdio'), Type.Literal('http'), Type.Literal('managed')], {
        description: 'stdio (default), http (a server on 127.0.0.1) or managed (the managed service, installed/started if needed)',
      }),
    ),
    url: Type.Optional(Type.String({ description: 'HTTP endpoint (http only; default http://127.0.0.1:8787/mcp)' })),
    mcp_only: Type.Optional(Type.Boolean({ description: 'Only the MCP registration' })),
    rules_only: Type.Optional(Type.Boolean({ description: 'Only the rules block' })),
    yes: Type.Optional(Type.Boolean({ description: 'No questions: use the flags and defaults' })),
    dry_run: Type.Optional(Type.Boolean({ description: 'Print the exact commands and file changes; change nothing' })),
  }),
  cli: { positionals: ['target'], short: { y: 'yes' } },
  examples: [
    { description: 'Connect Claude Code in this project (local scope, stdio)', arguments: { target: 'claude', yes: true } },
    { description: 'Show what connecting every agent found here would change', arguments: { target: 'all', dry_run: true } },
    { description: 'Point Cursor at the managed HTTP service', arguments: { target: 'cursor', transport: 'managed', yes: true } },
  ],
  async run(input, env) {
    const target = input.target as TargetArg;
    if (input.mcp_only === true && input.rules_only === true) throw usage('--mcp-only and --rules-only exclude each other');
    let transport = input.transport as Transport | undefined;
    const url = input.url as string | undefined;
    if (url !== undefined && transport !== undefined && transport !== 'http') throw usage('--url goes only with --transport http');
    if (url !== undefined) transport = 'http';
    const dryRun = input.dry_run === true;
    const d = await deps(env, dryRun);
    const { runInstall } = await import('../../agents/run-install.js');
    const interactive = process.stdin.isTTY === true && !env.json && !env.quiet && CHOOSING.every((k) => input[k] === undefined);
    if (!interactive) {
      const request = {
        target,
        scope: input.scope as Scope | undefined,
        transport: transport ?? 'stdio',
        url,
        mcp: input.rules_only !== true,
        rules: input.mcp_only !== true,
      };
      return print(env, target, await runInstall(d, request, null), 'ai.install', dryRun);
    }
    const { ask, confirmSummary } = await import('../../agents/interactive.js');
    const { selectTargets } = await import('../../agents/select.js');
    const answers = await ask(selectTargets(target, d.ctx, undefined).specs, d.managed);
    if (answers === null) {
      const declined = await runInstall(
        d,
        { target, scope: undefined, transport: 'stdio', url: undefined, mcp: true, rules: true },
        async () => false,
      );
      return print(env, target, declined, 'ai.install', false);
    }
    return print(env, target, await runInstall(d, { target, ...answers }, confirmSummary), 'ai.install', false);
  },
};

const uninstall: HostCliCommand = {
  id: 'ai.uninstall',
  title: 'Disconnect an agent from ah',
  description:
    'Remove the aihelper (and legacy ah) MCP registration and the ah rules block for an agent; idempotent (not_present when gone).',
  inputSchema: RootObject({
    target: TARGET_ARG,
    scope: Type.Optional(SCOPE),
    dry_run: Type.Optional(Type.Boolean({ description: 'Print the exact commands and file changes; change nothing' })),
  }),
  cli: { positionals: ['target'] },
  examples: [
    { description: 'Disconnect Claude Code from this project', arguments: { target: 'claude' } },
    { description: 'Show what disconnecting Codex would change', arguments: { target: 'codex', dry_run: true } },
  ],
  async run(input, env) {
    const dryRun = input.dry_run === true;
    const d = await deps(env, dryRun);
    const { runUninstall } = await import('../../agents/run-uninstall.js');
    const target = input.target as TargetArg;
    return print(env, target, await runUninstall(d, target, input.scope as Scope | undefined), 'ai.uninstall', dryRun);
  },
};

const status: HostCliCommand = {
  id: 'ai.status',
  title: 'Which agents are connected',
  description: 'Show, per agent and scope, whether aihelper is registered (and how), legacy registrations and the rules block; reads only.',
  inputSchema: RootObject({ target: Type.Optional(TARGET_ARG) }),
  cli: { positionals: ['target'] },
  examples: [
    { description: 'Every agent', arguments: {} },
    { description: 'Only Codex', arguments: { target: 'codex' } },
  ],
  async run(input, env) {
    const target = (input.target as TargetArg | undefined) ?? 'all';
    const d = await deps(env, false);
    const { runStatus } = await import('../../agents/run-status.js');
    const { statusText } = await import('../../agents/render.js');
    const check = () => runStatus(d.ctx, target);
    const spin = process.stderr.isTTY === true && !env.json && !env.quiet;
    const reports = spin ? await (await import('../../agents/interactive.js')).withSpinner('checking agents', check) : await check();
    if (env.quiet) return 0;
    if (env.json) out(renderJson(target === 'all' ? wrap('ai.status', reports, false, []) : reports[0]));
    else {
      out(reports.flatMap(statusText).join('\n'));
      for (const r of reports) for (const w of r.warnings) err(`note: ${r.target}: ${w}`);
    }
    return 0;
  },
};

export const AI_CLI_COMMANDS: readonly HostCliCommand[] = [install, uninstall, status];
