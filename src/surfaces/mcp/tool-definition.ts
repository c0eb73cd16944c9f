/**
 * Command → MCP tool, for every tool the server publishes: catalog commands and the reserved job
 * tools, from the same descriptor fields and effects. The list is built and serialised once per
 * catalog snapshot revision, not per request.
 */
import type { CommandDescriptor } from '../../catalog/descriptor.js';
import type { CatalogSnapshot } from '../../catalog/registry.js';
import { cliOnlyFields, type JsonSchema, toJsonSchema } from '../../catalog/schema.js';
import { MAX_TIMEOUT_MS } from '../../runtime/context.js';
import { credentialParagraph, credentialsSchema } from '../../runtime/credentials.js';
import { jobCommands } from '../../runtime/job-commands.js';

export const RISK_META = 'dev.aihelper/risk';
export const EXECUTION_META = 'dev.aihelper/execution';
export const DIAGNOSTIC_META = 'dev.aihelper/diagnostic';

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
  execution: { taskSupport: 'forbidden' };
  _meta: Record<string, unknown>;
}

/**
 * The reserved per-call context, the same in every tool. One description for the three fields:
 * it is repeated in every tool of the list, so every byte here is paid once per tool.
 */
export const CONTEXT_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'Per call: cwd, limit (max lines or items), timeout_ms.',
  properties: {
    cwd: { type: 'string', minLength: 1 },
    limit: { type: 'integer', minimum: 1 },
    timeout_ms: { type: 'integer', minimum: 1, maximum: MAX_TIMEOUT_MS },
  },
  additionalProperties: false,
};

const CWD_LINE = 'Relative paths resolve against context.cwd.';
/** Commands bound to a project directory (see runtime/context.ts needsExplicitCwd). */
const HTTP_CWD_LINE = 'Over HTTP, pass an absolute context.cwd.';

export function toolName(id: string): string {
  return `ah.${id}`;
}

/** Job tools manage the server's own jobs: no working directory, no per-call context. */
type ToolSource = CommandDescriptor & { kind?: 'command' | 'host' | 'job' };

function describe(d: ToolSource): string {
  const parts = [d.description.trim()];
  // A command stateless for some inputs only still needs the directory for the others.
  if (d.kind !== 'job') parts.push(d.stateless === true ? CWD_LINE : `${CWD_LINE} ${HTTP_CWD_LINE}`);
  if (d.credentialSlots && d.credentialSlots.length > 0) parts.push(credentialParagraph(d.credentialSlots));
  if (d.examples.length > 0) {
    parts.push(['Examples:', ...d.examples.map((e) => `- ${e.description}: ${JSON.stringify(e.arguments)}`)].join('\n'));
  }
  parts.push(`Impact: ${d.effects.impact}\nRisk: ${d.effects.risk}.`);
  return parts.join('\n\n');
}

export function descriptorTool(d: ToolSource): ToolDefinition {
  const input = toJsonSchema(d.inputSchema);
  const slots = d.credentialSlots ?? [];
  let inputSchema = input;
  if (d.kind !== 'job') {
    const properties: Record<string, unknown> = { ...((input.properties ?? {}) as Record<string, unknown>) };
    for (const name of cliOnlyFields(d.inputSchema).keys()) delete properties[name];
    properties.context = CONTEXT_SCHEMA;
    inputSchema = { ...input, properties };
    if (slots.length > 0) {
      properties.credentials = credentialsSchema(slots);
      if (slots.some((s) => s.required)) inputSchema.required = [...((input.required as string[] | undefined) ?? []), 'credentials'];
    }
  }
  return {
    name: d.mcp?.name ?? toolName(d.id),
    title: d.title,
    description: describe(d),
    inputSchema,
    outputSchema: toJsonSchema(d.outputSchema),
    annotations: {
      title: d.title,
      readOnlyHint: d.effects.readOnly,
      destructiveHint: d.effects.destructive,
      idempotentHint: d.effects.idempotent,
      openWorldHint: d.effects.openWorld,
    },
    execution: { taskSupport: 'forbidden' },
    _meta: {
      [RISK_META]: {
        level: d.effects.risk,
        impact: d.effects.impact,
        effects: [...d.effects.effects],
        reversibility: d.effects.reversibility,
      },
    },
  };
}

export interface ToolList {
  revision: number;
  tools: ToolDefinition[];
  /** Published tool name → the command id it runs. */
  byName: Map<string, string>;
}

const JOB_TOOLS = jobCommands().map((d) => ({ id: d.id, tool: descriptorTool(d) }));
const cache = new WeakMap<CatalogSnapshot, ToolList>();

/** Every enabled catalog command plus the four job tools, sorted by name; cached per snapshot. */
export function toolList(snapshot: CatalogSnapshot): ToolList {
  const cached = cache.get(snapshot);
  if (cached) return cached;
  const entries = [...snapshot.enabled().map((d) => ({ id: d.id, tool: descriptorTool(d) })), ...JOB_TOOLS];
  entries.sort((a, b) => (a.tool.name < b.tool.name ? -1 : 1));
  const list: ToolList = {
    revision: snapshot.revision,
    tools: entries.map((e) => e.tool),
    byName: new Map(entries.map((e) => [e.tool.name, e.id])),
  };
  cache.set(snapshot, list);
  return list;
}

/** A catalog that publishes job.* would shadow the reserved job tools. */
export function reservedJobCommands(snapshot: CatalogSnapshot): string[] {
  return snapshot.all.filter((d) => d.id === 'job' || d.id.startsWith('job.')).map((d) => d.id);
}
