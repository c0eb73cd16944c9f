/**
 * The catalog registry: validates descriptors once and produces immutable snapshots. Enabling or
 * disabling a domain never mutates a snapshot; it derives a new one with the next revision.
 */
import { isSecretKind } from './vault.js';
import { AhError } from '../errors.js';
import type { CatalogView, CommandDescriptor, DomainInfo, DomainModule } from './descriptor.js';
import { domainOf } from './descriptor.js';
import { effectsProblems } from './effects.js';
import { mcpHintProblems } from './tool-content.js';
import { CLI_ONLY, compile, describeErrors, type JsonSchema, schemaProblems } from './schema.js';

export const HOST_DOMAINS: readonly string[] = ['ai', 'plugins', 'mcp', 'secrets', 'upgrade'];
const ID_PATTERN = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/;
const RESERVED_PROPERTIES = ['context', 'credentials'];
const ALLOWED_ROOT_KEYWORDS = new Set([
  '$schema',
  '$id',
  '$defs',
  'definitions',
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  'type',
  'properties',
  'required',
  'additionalProperties',
]);

function invalid(message: string, cause?: string): AhError {
  return new AhError({ code: 'COMMAND_CATALOG_INVALID', message, cause, domain: 'plugins', operation: 'catalog' });
}

/**
 * The keys a schema's JSON text has at its root: own string keys with a value (TypeBox's symbol
 * keys and undefined members never reach the JSON). The checks read a schema as it is instead of
 * a JSON copy: copying every bundled plugin's schemas cost about 3 ms of each CLI start.
 */
function definedKeys(schema: object): string[] {
  return Object.keys(schema).filter((key) => (schema as Record<string, unknown>)[key] !== undefined);
}

function rootSchemaProblems(schema: JsonSchema, which: string): string[] {
  const problems: string[] = [];
  if (schema.type !== 'object') problems.push(`${which} root must have type "object"`);
  if (schema.additionalProperties !== false) problems.push(`${which} root must be closed (additionalProperties: false)`);
  for (const key of definedKeys(schema)) {
    if (!ALLOWED_ROOT_KEYWORDS.has(key)) problems.push(`${which} root keyword '${key}' is not allowed`);
  }
  const props = schema.properties;
  if (props !== undefined && (typeof props !== 'object' || props === null)) problems.push(`${which} properties must be an object`);
  return problems;
}

/** A CLI-only property must be optional (MCP could never call the command) and carry its hint. */
function cliOnlyProblems(input: JsonSchema): string[] {
  const problems: string[] = [];
  const required = new Set((input.required as string[] | undefined) ?? []);
  for (const [name, prop] of Object.entries((input.properties ?? {}) as Record<string, JsonSchema>)) {
    const hint = prop?.[CLI_ONLY];
    if (hint === undefined) continue;
    if (typeof hint !== 'string' || hint.trim() === '')
      problems.push(`input property '${name}': ${CLI_ONLY} must be a hint for MCP callers`);
    if (required.has(name) || prop.default !== undefined)
      problems.push(`input property '${name}' is CLI-only and cannot be required or have a default`);
  }
  return problems;
}

/**
 * Validates one descriptor; returns problems (empty when valid). Checking examples compiles the
 * input schema, so start-up skips it for built-ins (the catalog test checks them on every run).
 */
export function descriptorProblems(d: CommandDescriptor, options: { verifyExamples?: boolean } = {}): string[] {
  const problems: string[] = [];
  if (!ID_PATTERN.test(d.id)) problems.push(`id '${d.id}' must be domain.verb[.sub] with lowercase [a-z0-9-] segments`);
  if (typeof d.title !== 'string' || d.title.trim() === '') problems.push('title is required');
  if (typeof d.description !== 'string' || d.description.trim() === '') problems.push('description is required');
  if (typeof d.run !== 'function') problems.push('run must be a function');
  const input = d.inputSchema as JsonSchema;
  const output = d.outputSchema as JsonSchema;
  problems.push(...rootSchemaProblems(input, 'inputSchema'), ...rootSchemaProblems(output, 'outputSchema'));
  const inputProps = (input.properties ?? {}) as Record<string, unknown>;
  for (const reserved of RESERVED_PROPERTIES) {
    if (inputProps[reserved] !== undefined && Object.hasOwn(inputProps, reserved))
      problems.push(`input property '${reserved}' is reserved`);
  }
  problems.push(...cliOnlyProblems(input));
  problems.push(...effectsProblems(d.effects), ...mcpHintProblems(d.mcp));
  if (!Array.isArray(d.examples)) problems.push('examples must be a list');
  else if (problems.length === 0 && options.verifyExamples !== false) {
    const schemas = { inputSchema: input, outputSchema: output };
    for (const [which, schema] of Object.entries(schemas)) {
      const invalidSchema = schemaProblems(schema);
      if (invalidSchema) problems.push(`${which} is not valid JSON Schema 2020-12: ${invalidSchema}`);
    }
    if (problems.length > 0) return problems;
    const validate = compile(d.inputSchema);
    d.examples.forEach((example, i) => {
      if (typeof example.description !== 'string' || example.description.trim() === '') problems.push(`example ${i} needs a description`);
      if (!validate(structuredClone(example.arguments)))
        problems.push(`example ${i} does not validate: ${describeErrors(validate.errors)}`);
    });
  }
  const slotNames = new Set<string>();
  for (const slot of d.credentialSlots ?? []) {
    if (!/^[a-z][a-z0-9_]*$/.test(slot.name)) problems.push(`credential slot '${slot.name}' has a bad name`);
    if (slotNames.has(slot.name)) problems.push(`credential slot '${slot.name}' is declared twice`);
    slotNames.add(slot.name);
    if (slot.acceptedKinds.length === 0) problems.push(`credential slot '${slot.name}' accepts no kind`);
    for (const kind of slot.acceptedKinds) {
      if (!isSecretKind(kind)) problems.push(`credential slot '${slot.name}' accepts unknown kind '${kind}'`);
    }
    if (typeof slot.description !== 'string' || slot.description.trim() === '')
      problems.push(`credential slot '${slot.name}' needs a description`);
  }
  return problems;
}

export interface Definition {
  /** Increments whenever the set of registered domains/commands changes. */
  readonly revision: number;
  readonly domains: readonly DomainModule[];
  readonly byId: ReadonlyMap<string, CommandDescriptor>;
}

export interface DefineOptions {
  revision?: number;
  /** Which modules get their examples validated (default: all). */
  verifyExamples?: (module: DomainModule) => boolean;
  /**
   * Modules whose descriptors the plugin loader has already run through `descriptorProblems`
   * (bundled and external plugins): only the catalog-wide checks (domains, ids, tool names) are
   * left for them, so a start-up does not check every plugin command twice.
   */
  checked?: (module: DomainModule) => boolean;
}

/** Validates a set of domain modules into a definition. Throws COMMAND_CATALOG_INVALID. */
export function defineCatalog(modules: readonly DomainModule[], options: DefineOptions = {}): Definition {
  const revision = options.revision ?? 1;
  const byId = new Map<string, CommandDescriptor>();
  const seenDomains = new Set<string>();
  const toolNames = new Set<string>();
  for (const mod of modules) {
    const checked = options.checked?.(mod) === true;
    if (!/^[a-z0-9-]+$/.test(mod.domain)) throw invalid(`domain '${mod.domain}' has a bad name`);
    if (seenDomains.has(mod.domain)) throw invalid(`domain '${mod.domain}' is registered twice`);
    seenDomains.add(mod.domain);
    for (const d of mod.commands) {
      if (byId.has(d.id)) throw invalid(`command id '${d.id}' is registered twice`);
      if (domainOf(d.id) !== mod.domain) throw invalid(`command '${d.id}' is not in its domain '${mod.domain}'`);
      const problems = checked ? [] : descriptorProblems(d, { verifyExamples: options.verifyExamples?.(mod) ?? true });
      if (problems.length > 0) throw invalid(`command '${d.id}' is invalid: ${problems[0]}`, problems.join('; '));
      const name = d.mcp?.name;
      if (name !== undefined && toolNames.has(name)) throw invalid(`command '${d.id}' claims the tool name '${name}' a second time`);
      if (name !== undefined) toolNames.add(name);
      byId.set(d.id, d);
    }
  }
  return Object.freeze({ revision, domains: Object.freeze([...modules]), byId });
}

/** An immutable snapshot: a definition plus the enabled state. */
export class CatalogSnapshot implements CatalogView {
  readonly disabledDomains: readonly string[];
  readonly domains: readonly DomainInfo[];
  readonly all: readonly CommandDescriptor[];
  private readonly disabled: ReadonlySet<string>;

  constructor(
    readonly definition: Definition,
    disabledDomains: readonly string[],
    readonly revision: number,
  ) {
    // Host domains can never be disabled, whatever the settings file says.
    this.disabledDomains = Object.freeze([...new Set(disabledDomains)].filter((d) => !HOST_DOMAINS.includes(d)).sort());
    this.disabled = new Set(this.disabledDomains);
    this.domains = Object.freeze(
      definition.domains.map((m) => ({
        domain: m.domain,
        pluginName: m.pluginName,
        description: m.description,
        source: m.source ?? 'builtin',
        host: m.host === true || HOST_DOMAINS.includes(m.domain),
        requiredTools: m.requiredTools ?? [],
        notes: m.notes ?? [],
      })),
    );
    this.all = Object.freeze([...definition.byId.values()]);
    Object.freeze(this);
  }

  isEnabled(domain: string): boolean {
    return !this.disabled.has(domain);
  }

  get(id: string): CommandDescriptor | undefined {
    return this.definition.byId.get(id);
  }

  /** Enabled commands in id order. */
  enabled(): CommandDescriptor[] {
    return this.all.filter((d) => this.isEnabled(domainOf(d.id))).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  withDisabled(disabledDomains: readonly string[]): CatalogSnapshot {
    return new CatalogSnapshot(this.definition, disabledDomains, this.revision + 1);
  }
}
