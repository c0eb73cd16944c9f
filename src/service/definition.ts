/**
 * The durable service definition: everything that decides what the managed server runs. Its
 * `configuration_id` is a hash of the canonical JSON, so equal installs produce equal ids.
 */
import { createHash } from 'node:crypto';

export const DEFAULT_PORT = 8787;
export const DEFAULT_MAX_ACTIVE = 32;
export const DEFAULT_TIMEOUT_MS = 300_000;
/** Spacing between relaunches after a crash (seconds). */
export const DEFAULT_RESTART_DELAY_SEC = 60;
/** Relaunches after the initial launch, at most. */
export const MAX_RELAUNCHES = 3;

export interface ServiceDefinition {
  schema_version: 1;
  service_id: string;
  platform: 'linux' | 'win32';
  cwd: string | null;
  limit: number | null;
  port: number;
  max_active: number;
  default_timeout_ms: number;
  config_dir: string;
  ah_path: string;
  node_path: string;
  restart_delay_sec: number;
}

const str = (v: unknown) => typeof v === 'string' && v.length > 0;
const int = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;

/** Each field's check, in the canonical key order. */
const FIELDS: Record<keyof ServiceDefinition, (v: unknown) => boolean> = {
  schema_version: (v) => v === 1,
  service_id: str,
  platform: (v) => v === 'linux' || v === 'win32',
  cwd: (v) => v === null || str(v),
  limit: (v) => v === null || int(v),
  port: (v) => int(v) && (v as number) > 0 && (v as number) <= 65535,
  max_active: int,
  default_timeout_ms: int,
  config_dir: str,
  ah_path: str,
  node_path: str,
  restart_delay_sec: int,
};
const KEYS = Object.keys(FIELDS) as Array<keyof ServiceDefinition>;

/** Canonical JSON: fixed key order, no whitespace; the hash input and the file content. */
export function canonicalJson(definition: ServiceDefinition): string {
  return JSON.stringify(Object.fromEntries(KEYS.map((k) => [k, definition[k]])));
}

export function configurationId(definition: ServiceDefinition): string {
  return createHash('sha256').update(canonicalJson(definition)).digest('hex').slice(0, 32);
}

/** One service per user: the id is derived from the per-user state directory. */
export function serviceIdFor(platform: string, stateDir: string): string {
  return `ah-mcp-${createHash('sha256').update(`${platform}\0${stateDir}`).digest('hex').slice(0, 16)}`;
}

export function endpointOf(definition: Pick<ServiceDefinition, 'port'>): string {
  return `http://127.0.0.1:${definition.port}/mcp`;
}

/** Parses a stored definition, or null when it is not one (wrong shape or types). */
export function parseDefinition(value: unknown): ServiceDefinition | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const d = value as Record<string, unknown>;
  if (Object.keys(d).length !== KEYS.length) return null;
  return KEYS.every((k) => k in d && FIELDS[k](d[k])) ? (d as unknown as ServiceDefinition) : null;
}

/** The `ah` argv (after node and the ah script) the managed server runs with. */
export function serveArgs(definition: ServiceDefinition): string[] {
  return [
    ...(definition.cwd !== null ? ['--cwd', definition.cwd] : []),
    ...(definition.limit !== null ? ['--limit', String(definition.limit)] : []),
    'mcp',
    'serve',
    '--transport',
    'http',
    '--port',
    String(definition.port),
    '--max-active',
    String(definition.max_active),
    '--default-timeout-ms',
    String(definition.default_timeout_ms),
  ];
}

/** Environment the managed server needs: its config root and the marker that it is managed. */
export function managedEnvironment(definition: ServiceDefinition, stateDir: string): Array<[string, string]> {
  return [
    ['AH_CONFIG_DIR', definition.config_dir],
    ['AH_MANAGED_STATE_DIR', stateDir],
    ['AH_MANAGED_CONFIGURATION_ID', configurationId(definition)],
  ];
}
