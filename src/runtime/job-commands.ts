/**
 * The four reserved job tools as commands of the running server: the invoke path validates, runs
 * and logs them like every other command; they never take an execution slot (their targets do).
 */
import type { CommandContext, CommandDescriptor } from '../catalog/descriptor.js';
import type { Effects } from '../catalog/effects.js';
import { Closed, Nullable, RootObject, type Static, type TSchema, Type } from '../catalog/schema.js';
import { AhError } from '../errors.js';
import type { Callable, RuntimeCore } from './execute.js';
import type { Executor } from './executor.js';
import { prepare, startAdmitted } from './invoke.js';
import type { JobRegistry } from './jobs.js';

const JOB_ID = Type.String({ minLength: 1, description: 'The job_id returned by ah.job.start.' });
const STATUS = Type.Union(['running', 'succeeded', 'failed', 'cancelled', 'timed_out'].map((s) => Type.Literal(s)));
const SUMMARY = { job_id: Type.String(), tool: Type.String(), status: STATUS, draining: Type.Boolean() };

const DIAGNOSTIC = Closed({
  domain: Nullable(Type.String()),
  operation: Nullable(Type.String()),
  code: Type.String(),
  message: Type.String(),
  cause: Type.String(),
  exit_code_hint: Type.Integer(),
  retryable: Type.Boolean(),
  hint: Type.Optional(Type.String()),
});

const RESPONSE = Closed({
  success: Type.Boolean(),
  data: Type.Optional(Type.Object({}, { additionalProperties: true })),
  text: Type.Optional(Type.String()),
  notices: Type.Array(Closed({ code: Type.String(), message: Type.String() })),
  error: Type.Optional(DIAGNOSTIC),
});

const START_INPUT = RootObject({
  tool: Type.String({ minLength: 1, description: 'Exact published tool name, e.g. ah.run.check (never ah.job.*).' }),
  arguments: Type.Object({}, { additionalProperties: true, description: "The target tool's normal arguments, including context." }),
});
const ID_INPUT = RootObject({ job_id: JOB_ID });
const SUMMARY_OUTPUT = RootObject(SUMMARY);
const RESULT_OUTPUT = RootObject({ ...SUMMARY, ready: Type.Boolean(), response: Type.Optional(RESPONSE) });

/** Job state lives in the server's memory: the one effect every job tool has; a read by default. */
const effects = (impact: string, changes: Partial<Effects> = {}): Effects => ({
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  effects: ['process_state'],
  risk: 'low',
  impact,
  reversibility: 'yes',
  ...changes,
});

/** What the job tools need of the server that runs them. */
export interface JobServer {
  runtime: RuntimeCore;
  executor: Executor;
  jobs: JobRegistry;
  transport: 'stdio' | 'http';
  defaults: { cwd: string; limit: number | null; timeoutMs: number };
  /** Published tool name → command id; undefined for a name that is not published. */
  resolveTool(name: string): string | undefined;
}

type JobCommand = CommandDescriptor & Callable;

function jobArgumentError(id: string, message: string): AhError {
  return new AhError({ code: 'INVALID_ARGUMENT', message: `ah.${id}: ${message}`, exitCodeHint: 2, domain: 'job', operation: id });
}

function startJob(server: JobServer, input: Static<typeof START_INPUT>, ctx: CommandContext) {
  const target = input.tool;
  if (target === 'ah.job' || target.startsWith('ah.job.')) throw jobArgumentError('job.start', 'a job cannot start another job tool');
  const id = server.resolveTool(target);
  if (id === undefined) throw jobArgumentError('job.start', `unknown target tool '${target}' (use an exact published tool name)`);
  const { context, credentials, ...args } = input.arguments as Record<string, unknown>;
  // Over HTTP every job target needs an explicit absolute cwd, whatever the command.
  const http = server.transport === 'http';
  const options = {
    transport: 'mcp' as const,
    defaults: { ...server.defaults, httpCwdRule: http, forceExplicitCwd: http },
  };
  const call = prepare(server.runtime, { commandId: id, arguments: args, context, credentials }, options);
  // The job owns its cancellation: cancelling the job.start request itself must not cancel it.
  return Promise.resolve(
    server.jobs.start(target, (jobId) =>
      startAdmitted(server.runtime, call, server.executor, {
        ...options,
        log: { parameters: input.arguments, requestId: ctx.requestId, tool: target, jobId },
      }),
    ),
  );
}

const base = { examples: [], stateless: true, kind: 'job' as const };

/** The job tools' definitions without a server (schemas, effects): for tool lists and the build. */
export function jobCommands(server?: JobServer): readonly JobCommand[] {
  const need = (): JobServer => {
    if (!server) throw new Error('job tools run only inside a server');
    return server;
  };
  return [
    {
      ...base,
      id: 'job.start',
      title: 'Start a background job',
      description:
        'Validate and admit any published tool call as a background job, then return at once with its job_id. Poll ah.job.status or ah.job.result; stop it with ah.job.cancel. Over HTTP the target arguments need an absolute context.cwd. Inspect the target tool before starting it: the job can do anything that tool can.',
      inputSchema: START_INPUT,
      outputSchema: SUMMARY_OUTPUT,
      effects: effects('Runs the target tool, which may change files, run programs or reach the network.', {
        readOnly: false,
        destructive: true,
        idempotent: false,
        openWorld: true,
        risk: 'critical',
        reversibility: 'unknown',
      }),
      run: (input: Static<typeof START_INPUT>, ctx) => startJob(need(), input, ctx),
    },
    {
      ...base,
      id: 'job.status',
      title: 'Job status',
      description:
        'Report the state of a job: running, succeeded, failed, cancelled or timed_out, and whether its handler is still draining.',
      inputSchema: ID_INPUT,
      outputSchema: SUMMARY_OUTPUT,
      effects: effects('Reads job state held in server memory; changes nothing.'),
      run: async (input: Static<typeof ID_INPUT>) => need().jobs.status(input.job_id),
    },
    {
      ...base,
      id: 'job.result',
      title: 'Job result',
      description:
        'Return a job result without waiting: ready=false while it runs; once terminal, ready=true with the retained response (data or diagnostic). Repeatable: reading does not consume it.',
      inputSchema: ID_INPUT,
      outputSchema: RESULT_OUTPUT,
      effects: effects('Reads a retained job result; changes nothing.'),
      run: async (input: Static<typeof ID_INPUT>) => need().jobs.result(input.job_id),
    },
    {
      ...base,
      id: 'job.cancel',
      title: 'Cancel a job',
      description:
        'Cancel a running job (idempotent). The job becomes cancelled at once; draining stays true until its handler has stopped.',
      inputSchema: ID_INPUT,
      outputSchema: SUMMARY_OUTPUT,
      effects: effects('Stops a running job; work it had not finished is abandoned.', {
        readOnly: false,
        destructive: true,
        risk: 'medium',
        reversibility: 'no',
      }),
      run: (input: Static<typeof ID_INPUT>) => need().jobs.cancel(input.job_id),
    },
  ];
}

/** Tool name → schemas, for the build's ahead-of-time validators. */
export const JOB_TOOL_SCHEMAS: ReadonlyMap<string, { input: TSchema; output: TSchema }> = new Map(
  jobCommands().map((c) => [`ah.${c.id}`, { input: c.inputSchema as TSchema, output: c.outputSchema as TSchema }]),
);
