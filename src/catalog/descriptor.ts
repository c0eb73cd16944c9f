/** The contract every command implements once; the CLI and MCP surfaces are derived from it. */
import type { Effects } from './effects.js';
import type { VaultStore } from './vault.js';
import type { JsonSchema, TSchema } from './schema.js';

export interface Example {
  description: string;
  arguments: Record<string, unknown>;
}

export interface CredentialSlot {
  name: string;
  acceptedKinds: readonly string[];
  required: boolean;
  description: string;
}

export interface CliHints {
  /** Input fields taken from positional arguments, in order. */
  positionals?: readonly string[];
  /** A string-array field that takes every remaining argument verbatim (after an optional `--`). */
  rest?: string;
  /** Short flag letter → input field, e.g. `{ n: 'number_lines' }`. */
  short?: Readonly<Record<string, string>>;
  /** Extra long flag names (without `--`) → input field, e.g. `{ glob: 'globs', ref: 'reference' }`. */
  aliases?: Readonly<Record<string, string>>;
}

/** A line or item notice attached to a successful result (shown by the CLI, sent in MCP meta). */
export interface Notice {
  code: string;
  message: string;
}

/**
 * An MCP content block a command may return in place of its JSON text: what a tool shows that is
 * not JSON (an image, audio, an embedded or linked resource). Binary data is base64.
 */
export type ToolContent =
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio'; data: string; mimeType: string }
  | { type: 'resource'; resource: { uri: string; mimeType?: string; text?: string; blob?: string } }
  | { type: 'resource_link'; uri: string; name: string; mimeType?: string; description?: string };

/** How a command is published as an MCP tool, where the derived default does not fit. */
export interface McpToolHints<O = any> {
  /**
   * The exact tool name instead of `ah.<id>`, for a tool whose name is fixed elsewhere (a client
   * or a test suite expects it). 1–128 of `A-Z a-z 0-9 _ - .`; `ah.*` stays reserved for ids.
   */
  name?: string;
  /** The result's content blocks, built from the (schema-checked) output, instead of its JSON text. */
  content?(output: O): readonly ToolContent[];
}

/** MCP logging levels (RFC 5424 names). */
export type ClientLogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** Host facilities a handler may need beyond the file system (catalog state, plugin settings). */
export interface HostApi {
  /** The current catalog snapshot (read-only view). */
  catalog(): CatalogView;
  /** Persists and publishes a new set of disabled domains; returns the stored list. */
  setDisabledDomains(update: (current: readonly string[]) => string[]): Promise<{ disabled: string[]; changed: boolean }>;
  /** Absolute path of plugins.json. */
  readonly pluginSettingsPath: string;
  /** The secrets vault of this configuration directory (opened lazily; errors carry vault codes). */
  readonly vault: VaultStore;
}

export interface DomainInfo {
  domain: string;
  pluginName: string;
  description: string;
  source: 'builtin' | 'bundled' | 'external';
  host: boolean;
  requiredTools: readonly { name: string; check_args: readonly string[]; reason: string }[];
  notes: readonly string[];
}

export interface CatalogView {
  readonly revision: number;
  readonly domains: readonly DomainInfo[];
  readonly disabledDomains: readonly string[];
  /** Every registered command, enabled or not. */
  readonly all: readonly CommandDescriptor[];
  isEnabled(domain: string): boolean;
}

export interface CommandContext {
  /** Absolute working directory for this call. */
  cwd: string;
  /** Item/line cap, or null for none. */
  limit: number | null;
  /**
   * Fires on cancellation or timeout; handlers must stop promptly. Made on first read (an accessor
   * of the context object): read it from the context rather than copying the context.
   */
  readonly signal: AbortSignal;
  /** Epoch milliseconds by which the call must finish. */
  deadline: number;
  /** Environment for child processes (handlers never read process.env). */
  env: Readonly<Record<string, string | undefined>>;
  /** Resolved credential values by slot (only for commands that declare slots). */
  credentials: Readonly<Record<string, { id: string; kind: string; values: Readonly<Record<string, string>> }>>;
  /** Non-fatal notices to return with the result. */
  notice(notice: Notice): void;
  /**
   * Progress for long calls. Free text alone is rate-limited by the surface (at most one MCP
   * notification a second); with `step` the notification carries those numbers and goes out at
   * once (MCP requires `progress` to increase: a value not above the last one is dropped).
   */
  progress(message: string, step?: { progress: number; total?: number }): void;
  /** A message for the MCP client's log (`notifications/message`, at the client's level); the CLI drops it. */
  log?(level: ClientLogLevel, message: string): void;
  /**
   * Over Streamable HTTP, ends this call's response stream now; the client reconnects with
   * Last-Event-ID and receives the result when it is ready (so a long call holds no connection).
   * No-op on stdio and the CLI.
   */
  releaseStream?(): void;
  host: HostApi;
  /** 'cli' or 'mcp'. */
  transport: 'cli' | 'mcp';
  /** The surface's id for this call (MCP execution id), for correlating log records. */
  requestId?: string;
}

export interface CommandDescriptor<I = any, O = any> {
  /** `domain.verb[.sub]`, lowercase `[a-z0-9-]` segments. */
  id: string;
  title: string;
  description: string;
  inputSchema: TSchema | JsonSchema;
  outputSchema: TSchema | JsonSchema;
  effects: Effects;
  examples: readonly Example[];
  credentialSlots?: readonly CredentialSlot[];
  cli?: CliHints;
  /**
   * Whether this call works without an explicit cwd (HTTP transport rule). Default: needs one.
   * A function lets a command decide from its arguments (e.g. a relative file input needs cwd).
   */
  stateless?: boolean | ((input: Record<string, unknown>) => boolean);
  /** Human rendering for the CLI text mode; JSON otherwise. */
  render?(output: O): string;
  /**
   * Fields of a successful output worth keeping in the invocation log's `outcome` (the log keeps
   * no outputs otherwise). Keep it small and free of user data.
   */
  logOutcome?(output: O): Record<string, unknown>;
  /** MCP publication hints (exact tool name, non-JSON content); checked by the registry. */
  mcp?: McpToolHints<O>;
  run(input: I, ctx: CommandContext): Promise<O>;
}

/** Identity helper giving descriptors full type inference. */
export function defineCommand<I, O>(descriptor: CommandDescriptor<I, O>): CommandDescriptor<I, O> {
  return descriptor;
}

export function domainOf(id: string): string {
  const dot = id.indexOf('.');
  return dot === -1 ? id : id.slice(0, dot);
}

/** A domain: a named group of commands (built-in, or an external plugin module: same contract). */
export interface DomainModule {
  domain: string;
  pluginName: string;
  description: string;
  /** Host domains (ai, plugins, mcp, secrets) cannot be disabled. */
  host?: boolean;
  /** Where the module came from; built-in unless the loader found it on disk. */
  source?: 'builtin' | 'bundled' | 'external';
  requiredTools?: readonly { name: string; check_args: readonly string[]; reason: string }[];
  notes?: readonly string[];
  commands: readonly CommandDescriptor[];
}
