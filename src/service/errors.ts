/** The managed-service diagnostic codes (the seed's list) and one constructor for them. */
import { AhError } from '../errors.js';

const SERVICE_CODES = [
  'MCP_SERVICE_NOT_INSTALLED',
  'MCP_SERVICE_BUSY',
  'MCP_SERVICE_TASK_CONFLICT',
  'MCP_SERVICE_INSTALLATION_CONFLICT',
  'MCP_SERVICE_CONFIGURATION_DRIFT',
  'MCP_SERVICE_STATE_INVALID',
  'MCP_SERVICE_START_TIMEOUT',
  'MCP_SERVICE_WORKER_MISSING',
  'MCP_SERVICE_IDENTITY_MISMATCH',
  'MCP_SERVICE_SCHEDULER_FAILED',
  'MCP_SERVICE_RESTART_REQUIRED',
  'MCP_SERVICE_STOP_UNSAFE',
  'MCP_SERVICE_STOP_TIMEOUT',
  'MCP_SERVICE_TASK_CHANGED',
  'MCP_SERVICE_RESTART_FAILED',
  'MCP_SERVICE_UNINSTALL_INCOMPLETE',
  'MCP_SERVICE_UNSUPPORTED_PLATFORM',
] as const;

export type ServiceCode = (typeof SERVICE_CODES)[number];

/** Codes a caller may simply retry later. */
const RETRYABLE = new Set<ServiceCode>([
  'MCP_SERVICE_BUSY',
  'MCP_SERVICE_START_TIMEOUT',
  'MCP_SERVICE_RESTART_FAILED',
  'MCP_SERVICE_TASK_CHANGED',
]);

export function serviceError(
  code: ServiceCode,
  message: string,
  { operation = 'mcp.service', ...extra }: { cause?: string; hint?: string; operation?: string } = {},
): AhError {
  return new AhError({ code, message, ...extra, retryable: RETRYABLE.has(code), domain: 'mcp', operation });
}
