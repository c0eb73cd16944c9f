/** The four reserved job tools: definitions (schemas, annotations, risk meta). */
import { Closed, Nullable, RootObject, type TSchema, Type, toJsonSchema } from '../../catalog/schema.js';
import type { ToolDefinition } from './tools.js';

const JOB_ID = Type.String({ minLength: 1, description: 'The job_id returned by ah.job.start.' });
const STATUS = Type.Union(['running', 'succeeded', 'failed', 'cancelled', 'timed_out'].map((s) => Type.Literal(s)));
const SUMMARY = {
  job_id: Type.String(),
  tool: Type.String(),
  status: STATUS,
  draining: Type.Boolean(),
};

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

export const JOB_START_INPUT = RootObject({
  tool: Type.String({ minLength: 1, description: 'Exact published tool name, e.g. ah.run.check (never ah.job.*).' }),
  arguments: Type.Object({}, { additionalProperties: true, description: "The target tool's normal arguments, including context." }),
});
export const JOB_ID_INPUT = RootObject({ job_id: JOB_ID });

interface JobToolSpec {
  name: string;
  title: string;
  description: string;
  input: TSchema;
  output: TSchema;
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
  openWorld: boolean;
  risk: 'low' | 'medium' | 'critical';
  impact: string;
  reversibility: 'yes' | 'no' | 'unknown';
}

const SPECS: JobToolSpec[] = [
  {
    name: 'ah.job.start',
    title: 'Start a background job',
    description:
      'Validate and admit any published tool call as a background job, then return at once with its job_id. Poll ah.job.status or ah.job.result; stop it with ah.job.cancel. Over HTTP the target arguments need an absolute context.cwd. Inspect the target tool before starting it: the job can do anything that tool can.',
    input: JOB_START_INPUT,
    output: RootObject(SUMMARY),
    readOnly: false,
    destructive: true,
    idempotent: false,
    openWorld: true,
    risk: 'critical',
    impact: 'Runs the target tool, which may change files, run programs or reach the network.',
    reversibility: 'unknown',
  },
  {
    name: 'ah.job.status',
    title: 'Job status',
    description:
      'Report the state of a job: running, succeeded, failed, cancelled or timed_out, and whether its handler is still draining.',
    input: JOB_ID_INPUT,
    output: RootObject(SUMMARY),
    readOnly: true,
    destructive: false,
    idempotent: true,
    openWorld: false,
    risk: 'low',
    impact: 'Reads job state held in server memory; changes nothing.',
    reversibility: 'yes',
  },
  {
    name: 'ah.job.result',
    title: 'Job result',
    description:
      'Return a job result without waiting: ready=false while it runs; once terminal, ready=true with the retained response (data or diagnostic). Repeatable: reading does not consume it.',
    input: JOB_ID_INPUT,
    output: RootObject({ ...SUMMARY, ready: Type.Boolean(), response: Type.Optional(RESPONSE) }),
    readOnly: true,
    destructive: false,
    idempotent: true,
    openWorld: false,
    risk: 'low',
    impact: 'Reads a retained job result; changes nothing.',
    reversibility: 'yes',
  },
  {
    name: 'ah.job.cancel',
    title: 'Cancel a job',
    description: 'Cancel a running job (idempotent). The job becomes cancelled at once; draining stays true until its handler has stopped.',
    input: JOB_ID_INPUT,
    output: RootObject(SUMMARY),
    readOnly: false,
    destructive: true,
    idempotent: true,
    openWorld: false,
    risk: 'medium',
    impact: 'Stops a running job; work it had not finished is abandoned.',
    reversibility: 'no',
  },
];

export const JOB_TOOL_SCHEMAS: ReadonlyMap<string, { input: TSchema; output: TSchema }> = new Map(
  SPECS.map((s) => [s.name, { input: s.input, output: s.output }]),
);

export const JOB_TOOLS: readonly ToolDefinition[] = SPECS.map((s) => ({
  name: s.name,
  title: s.title,
  description: `${s.description}\n\nImpact: ${s.impact}\nRisk: ${s.risk}.`,
  inputSchema: toJsonSchema(s.input),
  outputSchema: toJsonSchema(s.output),
  annotations: {
    title: s.title,
    readOnlyHint: s.readOnly,
    destructiveHint: s.destructive,
    idempotentHint: s.idempotent,
    openWorldHint: s.openWorld,
  },
  execution: { taskSupport: 'forbidden' as const },
  _meta: { 'dev.aihelper/risk': { level: s.risk, impact: s.impact, effects: ['process_state'], reversibility: s.reversibility } },
}));
