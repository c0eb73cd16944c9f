/**
 * The shared vocabulary of the secrets vault: record kinds and their fields, metadata (the only
 * part that ever leaves the vault through outputs), and the store interface that the CLI, the
 * browser setup page and credential resolution all use.
 */

export const SECRET_KINDS = ['postgres', 'http-basic', 'ssh-key', 'github-token', 'gitlab-token'] as const;
export type SecretKind = (typeof SECRET_KINDS)[number];

export interface KindFields {
  /** Fields a new record of this kind must have. */
  readonly required: readonly string[];
  /** Fields it may have. */
  readonly optional: readonly string[];
  /** Fields entered as multi-line text (a textarea in the browser, `.`-terminated lines on a TTY). */
  readonly multiline: readonly string[];
  /** Fields that are not secret (shown as plain text inputs). Everything else is hidden input. */
  readonly plain: readonly string[];
}

export const KIND_FIELDS: Readonly<Record<SecretKind, KindFields>> = {
  postgres: {
    required: ['host', 'user', 'password'],
    optional: ['port', 'database', 'sslmode'],
    multiline: [],
    plain: ['host', 'port', 'database', 'user', 'sslmode'],
  },
  'http-basic': { required: ['username', 'password'], optional: [], multiline: [], plain: ['username'] },
  'ssh-key': { required: ['private_key'], optional: ['passphrase'], multiline: ['private_key'], plain: [] },
  'github-token': { required: ['token'], optional: [], multiline: [], plain: [] },
  'gitlab-token': { required: ['token'], optional: [], multiline: [], plain: [] },
};

export const POSTGRES_SSLMODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'] as const;

export function isSecretKind(value: unknown): value is SecretKind {
  return typeof value === 'string' && (SECRET_KINDS as readonly string[]).includes(value);
}

/** What outputs, logs and the setup page may show about a record. */
export interface SecretMetadata {
  id: string;
  kind: SecretKind;
  label: string;
  description: string | null;
}

/** A full record, values included: only credential resolution and the vault itself see these. */
export interface SecretRecord extends SecretMetadata {
  values: Readonly<Record<string, string>>;
}

export interface NewSecret {
  id: string;
  kind: SecretKind;
  /** Defaults to the id. */
  label?: string;
  description?: string | null;
  values: Record<string, string>;
}

export interface SecretPatch {
  label?: string;
  description?: string | null;
  /** Only the fields to replace; a field that is absent (or an empty string) keeps its stored value. */
  values?: Record<string, string>;
}

/**
 * The vault. Every method reads the file fresh (another process may have changed it) and every
 * mutation happens under the cross-process lock. Failures are AhErrors with the digest's codes:
 * VAULT_NOT_INITIALIZED, VAULT_LOCKED, VAULT_KEY_UNAVAILABLE, VAULT_SECRET_EXISTS,
 * VAULT_SECRET_NOT_FOUND, VAULT_INVALID_SECRET, VAULT_BUSY (lock wait exceeded).
 */
export interface VaultStore {
  /** Absolute path of secrets.v1.json. */
  readonly path: string;
  /** Creates an empty vault (and the key when it comes from the keyring); idempotent. */
  init(): Promise<{ created: boolean }>;
  list(kind?: SecretKind): Promise<SecretMetadata[]>;
  /** The full record including values. */
  read(id: string): Promise<SecretRecord>;
  add(secret: NewSecret): Promise<SecretMetadata>;
  edit(id: string, patch: SecretPatch): Promise<SecretMetadata>;
  remove(id: string): Promise<SecretMetadata>;
}
