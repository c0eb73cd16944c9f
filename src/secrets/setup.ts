/**
 * Browser setup capabilities: a short-lived, single-use bearer value bound to exactly one create or
 * edit target, plus the submission logic that turns a posted form into one vault write. Holding a
 * capability is the only authority the setup page has, so it is random (256 bits), expires after
 * ten minutes and is spent only by a successful write (a failed one can be corrected and retried).
 */
import { randomBytes } from 'node:crypto';
import { AhError } from '../errors.js';
import { checkId } from './records.js';
import { isSecretKind, KIND_FIELDS, type SecretKind, type SecretMetadata, type VaultStore } from './types.js';

export const CAPABILITY_TTL_MS = 10 * 60 * 1000;
export const MAX_CAPABILITIES = 128;
const CAPABILITY_PATTERN = /^[0-9a-f]{64}$/;

/** What a capability allows: the kind is always resolved (edit looks it up when minting). */
export interface SetupTarget {
  action: 'create' | 'edit';
  id: string;
  kind: SecretKind;
  label?: string;
  description?: string;
}

export function invalidCapability(): AhError {
  // One message for unknown, expired and spent alike: the difference helps nobody but a guesser.
  return new AhError({
    code: 'VAULT_SETUP_CAPABILITY_INVALID',
    message: 'this setup link is not valid (unknown, expired or already used)',
    hint: 'Run `ah secrets add|edit <id> --open` again for a fresh link.',
  });
}

export class CapabilityStore {
  // A Map iterates in insertion order, which is also expiry order (the TTL is constant).
  private readonly entries = new Map<string, { target: SetupTarget; expiresAt: number }>();
  private readonly now: () => number;
  private readonly ttlMs: number;
  private readonly max: number;

  constructor(options: { now?: () => number; ttlMs?: number; max?: number } = {}) {
    this.now = options.now ?? Date.now;
    this.ttlMs = options.ttlMs ?? CAPABILITY_TTL_MS;
    this.max = options.max ?? MAX_CAPABILITIES;
  }

  get size(): number {
    this.purge();
    return this.entries.size;
  }

  mint(target: SetupTarget): { capability: string; expiresAt: number } {
    this.purge();
    while (this.entries.size >= this.max) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    const capability = randomBytes(32).toString('hex');
    const expiresAt = this.now() + this.ttlMs;
    this.entries.set(capability, { target: { ...target }, expiresAt });
    return { capability, expiresAt };
  }

  /** The bound target, without spending the capability; undefined when unknown or expired. */
  peek(capability: string): SetupTarget | undefined {
    if (!CAPABILITY_PATTERN.test(capability)) return undefined;
    const entry = this.entries.get(capability);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(capability);
      return undefined;
    }
    return { ...entry.target };
  }

  consume(capability: string): void {
    this.entries.delete(capability);
  }

  private purge(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt <= now) this.entries.delete(key);
    }
  }
}

/** Serializes async sections: a second Save arriving mid-write waits and then finds the capability spent. */
export class Mutex {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(section: () => Promise<T>): Promise<T> {
    const result = this.tail.then(section, section);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

function requestError(message: string): AhError {
  return new AhError({ code: 'VAULT_SETUP_REQUEST_INVALID', message });
}

/** A rejected form; `fields` names the inputs the page should mark as wrong. */
export class SubmissionError extends AhError {
  constructor(
    message: string,
    readonly fields: readonly string[] = [],
  ) {
    super({ code: 'VAULT_SETUP_SUBMISSION_INVALID', message });
  }
}

// A sanity bound only; the vault applies the real label/description rules when it writes.
const TEXT_LIMIT = 2000;

function optionalText(body: Record<string, unknown>, key: string): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.length > TEXT_LIMIT)
    throw requestError(`"${key}" must be a string of at most ${TEXT_LIMIT} characters`);
  return value;
}

/** The fields a form for this target shows, in the order people expect to type them. */
const FIELD_ORDER = ['host', 'port', 'database', 'user', 'username', 'password', 'sslmode', 'private_key', 'passphrase', 'token'];

export function formFields(kind: SecretKind): string[] {
  const { required, optional } = KIND_FIELDS[kind];
  const rank = (f: string) => (FIELD_ORDER.includes(f) ? FIELD_ORDER.indexOf(f) : FIELD_ORDER.length);
  return [...required, ...optional].sort((a, b) => rank(a) - rank(b));
}

export function createSetupService(vault: () => VaultStore, options: { now?: () => number; max?: number } = {}) {
  const capabilities = new CapabilityStore(options);
  const mutex = new Mutex();

  async function resolveTarget(body: unknown): Promise<SetupTarget> {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw requestError('the request must be a JSON object');
    const input = body as Record<string, unknown>;
    const allowed = ['action', 'id', 'kind', 'label', 'description'];
    const unknown = Object.keys(input).filter((k) => !allowed.includes(k));
    if (unknown.length > 0) throw requestError(`unknown properties: ${unknown.join(', ')}`);
    const { action, id, kind } = input;
    if (action !== 'create' && action !== 'edit') throw requestError('"action" must be "create" or "edit"');
    if (typeof id !== 'string' || id.trim() === '') throw requestError('"id" must be a non-empty string');
    const label = optionalText(input, 'label');
    const description = optionalText(input, 'description');
    if (kind !== undefined && !isSecretKind(kind)) throw requestError(`"kind" must be one of: ${Object.keys(KIND_FIELDS).join(', ')}`);
    // Reading the metadata now fails early (uninitialized vault, taken or unknown id) instead of
    // after someone has typed their secret into the page.
    const existing = (await vault().list()).find((s) => s.id === id);
    let resolved: SecretKind;
    if (action === 'create') {
      if (kind === undefined) throw requestError('"kind" is required to create a secret');
      checkId(id);
      if (existing) throw new AhError({ code: 'VAULT_SECRET_EXISTS', message: `a secret with id '${id}' already exists` });
      resolved = kind;
    } else {
      if (!existing) throw new AhError({ code: 'VAULT_SECRET_NOT_FOUND', message: `no secret with id '${id}'` });
      if (kind !== undefined && kind !== existing.kind) throw requestError(`secret '${id}' is a ${existing.kind}, not a ${kind}`);
      resolved = existing.kind;
    }
    const target: SetupTarget = { action, id, kind: resolved };
    if (label !== undefined) target.label = label;
    if (description !== undefined) target.description = description;
    return target;
  }

  /** The target of a live capability, or VAULT_SETUP_CAPABILITY_INVALID. */
  function inspect(capability: string): SetupTarget {
    const target = capabilities.peek(capability);
    if (target === undefined) throw invalidCapability();
    return target;
  }

  /** Form values for the target's kind: unknown or repeated names are refused, blanks dropped. */
  function valuesOf(target: SetupTarget, form: URLSearchParams): Record<string, string> {
    const spec = KIND_FIELDS[target.kind];
    const known = new Set([...spec.required, ...spec.optional]);
    const seen = new Set<string>();
    const values: Record<string, string> = {};
    for (const [name, raw] of form) {
      // Field names are chosen by us, so echoing an unknown one is safe; values never are.
      if (!known.has(name)) throw new SubmissionError(`unknown field '${name.slice(0, 64)}'`);
      if (seen.has(name)) throw new SubmissionError(`field '${name}' was sent more than once`, [name]);
      seen.add(name);
      // Browsers send textarea line breaks as CRLF; keys and certificates want LF.
      const value = spec.multiline.includes(name) ? raw.replace(/\r\n?/g, '\n') : raw;
      if (value !== '') values[name] = value;
    }
    if (target.action === 'create') {
      const missing = spec.required.filter((f) => values[f] === undefined);
      if (missing.length > 0) throw new SubmissionError(`please fill in: ${missing.join(', ')}`, missing);
    } else if (Object.keys(values).length === 0 && target.label === undefined && target.description === undefined) {
      throw new SubmissionError('enter at least one new value (empty fields keep the stored ones)');
    }
    return values;
  }

  return {
    capabilities,
    /** Validates a capability request (the parsed JSON body), resolves its target and mints. */
    async mint(body: unknown): Promise<{ capability: string; target: SetupTarget }> {
      const target = await resolveTarget(body);
      const { capability } = capabilities.mint(target);
      return { capability, target };
    },
    inspect,
    /** Writes one submission; consumes the capability only when the write succeeded. */
    submit(capability: string, form: URLSearchParams): Promise<{ target: SetupTarget; secret: SecretMetadata }> {
      return mutex.run(async () => {
        const target = inspect(capability);
        const values = valuesOf(target, form);
        const { id, kind, label, description } = target;
        const secret =
          target.action === 'create'
            ? await vault().add({ id, kind, values, label, description })
            : await vault().edit(id, { values, label, description });
        capabilities.consume(capability);
        return { target, secret };
      });
    },
  };
}
