/**
 * Record validation and the plaintext document. Validation messages name the offending field but
 * never repeat a value: they reach the CLI, MCP error causes and logs. Records are kept in Maps so
 * an id such as `__proto__` is just another key.
 */
import { AhError } from '../errors.js';
import {
  isSecretKind,
  KIND_FIELDS,
  type NewSecret,
  POSTGRES_SSLMODES,
  SECRET_KINDS,
  type SecretKind,
  type SecretMetadata,
  type SecretPatch,
  type SecretRecord,
} from './types.js';
import { lockedError } from './crypto.js';

const MAX_ID = 128;
const MAX_LABEL = 200;
const MAX_DESCRIPTION = 2000;
const MAX_VALUE_BYTES = 64 * 1024;
/** Control characters would corrupt the one-line text output and logs. */
function hasControl(text: string): boolean {
  return [...text].some((c) => c.charCodeAt(0) < 0x20 || c === '\x7f');
}

function invalid(message: string, hint?: string): AhError {
  return new AhError({ code: 'VAULT_INVALID_SECRET', message, hint, operation: 'secrets.validate' });
}

export function checkId(id: unknown): string {
  if (typeof id !== 'string' || id.trim() === '') throw invalid('the secret id must not be blank');
  if (id !== id.trim()) throw invalid('the secret id must not start or end with whitespace');
  if (id.length > MAX_ID || hasControl(id)) throw invalid(`the secret id must be at most ${MAX_ID} printable characters`);
  return id;
}

function checkLabel(label: unknown): string {
  if (typeof label !== 'string' || label.trim() === '') throw invalid('the label must not be blank');
  if (label.length > MAX_LABEL || hasControl(label)) throw invalid(`the label must be at most ${MAX_LABEL} printable characters`);
  return label;
}

/** A blank description means "none". */
function checkDescription(description: unknown): string | null {
  if (description === null || description === undefined) return null;
  if (typeof description !== 'string') throw invalid('the description must be text');
  if (description.length > MAX_DESCRIPTION) throw invalid(`the description must be at most ${MAX_DESCRIPTION} characters`);
  return description.trim() === '' ? null : description;
}

function checkKind(kind: unknown): SecretKind {
  if (!isSecretKind(kind)) throw invalid('unknown secret kind', `Kinds: ${SECRET_KINDS.join(', ')}.`);
  return kind;
}

function checkValues(kind: SecretKind, values: unknown): Record<string, string> {
  if (typeof values !== 'object' || values === null || Array.isArray(values)) throw invalid('the values must be an object of fields');
  const fields = KIND_FIELDS[kind];
  const allowed = [...fields.required, ...fields.optional];
  const out: [string, string][] = [];
  for (const [field, value] of Object.entries(values)) {
    if (!allowed.includes(field)) throw invalid(`'${field}' is not a field of kind ${kind}`, `Fields: ${allowed.join(', ')}.`);
    if (typeof value !== 'string') throw invalid(`field '${field}' must be text`);
    if (value === '') throw invalid(`field '${field}' must not be empty`);
    if (Buffer.byteLength(value) > MAX_VALUE_BYTES) throw invalid(`field '${field}' is larger than ${MAX_VALUE_BYTES} bytes`);
    out.push([field, value]);
  }
  const result = Object.fromEntries(out);
  const missing = fields.required.find((field) => !Object.hasOwn(result, field));
  if (missing !== undefined) throw invalid(`kind ${kind} requires field '${missing}'`);
  const problem = out.map(([field, value]) => fieldProblem(kind, field, value)).find((p) => p !== undefined);
  if (problem) throw invalid(problem);
  return result;
}

/** Format rules of single fields (so prompts can ask again at once); the message never repeats the value. */
export function fieldProblem(kind: SecretKind, field: string, value: string): string | undefined {
  if (kind !== 'postgres') return undefined;
  if (field === 'port' && !(/^\d{1,5}$/.test(value) && Number(value) >= 1 && Number(value) <= 65535)) {
    return "field 'port' must be a whole number from 1 to 65535";
  }
  if (field === 'sslmode' && !(POSTGRES_SSLMODES as readonly string[]).includes(value)) {
    return `field 'sslmode' must be one of ${POSTGRES_SSLMODES.join(', ')}`;
  }
  return undefined;
}

/** A complete, valid record from an add request (label defaults to the id). */
export function newRecord(secret: NewSecret): SecretRecord {
  const id = checkId(secret.id);
  const kind = checkKind(secret.kind);
  const label = secret.label === undefined ? id : checkLabel(secret.label);
  return { id, kind, label, description: checkDescription(secret.description), values: checkValues(kind, secret.values) };
}

/** The record after an edit: absent or empty fields keep their stored values; the result is revalidated. */
export function patchedRecord(record: SecretRecord, patch: SecretPatch): SecretRecord {
  const values: Record<string, string> = { ...record.values };
  for (const [field, value] of Object.entries(patch.values ?? {})) {
    if (value === '') continue;
    Object.defineProperty(values, field, { value, enumerable: true, writable: true, configurable: true });
  }
  return {
    id: record.id,
    kind: record.kind,
    label: patch.label === undefined ? record.label : checkLabel(patch.label),
    description: patch.description === undefined ? record.description : checkDescription(patch.description),
    values: checkValues(record.kind, values),
  };
}

export function metadataOf(record: SecretRecord): SecretMetadata {
  return { id: record.id, kind: record.kind, label: record.label, description: record.description };
}

export type VaultDocument = Map<string, SecretRecord>;

export function serializeDocument(doc: VaultDocument): Buffer {
  return Buffer.from(JSON.stringify({ secrets: Object.fromEntries(doc) }), 'utf8');
}

/**
 * Parses a decrypted document. It authenticated, so a bad shape means a bug or a foreign writer;
 * it is still reported as VAULT_LOCKED rather than half-read.
 */
export function parseDocument(plaintext: Buffer): VaultDocument {
  let parsed: unknown;
  try {
    parsed = JSON.parse(plaintext.toString('utf8'));
  } catch {
    throw lockedError('the decrypted document is not JSON');
  }
  const secrets = (parsed as { secrets?: unknown } | null)?.secrets;
  if (typeof secrets !== 'object' || secrets === null || Array.isArray(secrets))
    throw lockedError('the decrypted document has no secrets map');
  const doc: VaultDocument = new Map();
  for (const [id, raw] of Object.entries(secrets)) {
    const r = raw as Partial<SecretRecord> | null;
    const valid =
      r !== null &&
      typeof r === 'object' &&
      r.id === id &&
      isSecretKind(r.kind) &&
      typeof r.label === 'string' &&
      (r.description === null || typeof r.description === 'string') &&
      typeof r.values === 'object' &&
      r.values !== null &&
      Object.values(r.values).every((v) => typeof v === 'string');
    if (!valid) throw lockedError('the decrypted document holds a malformed record');
    doc.set(id, { id, kind: r.kind as SecretKind, label: r.label as string, description: r.description ?? null, values: { ...r.values } });
  }
  return doc;
}
