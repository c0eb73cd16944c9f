/**
 * Credential slots: a command declares named slots; a call names a vault record id per slot; the
 * runtime checks the mapping before admission and swaps ids for values just before the handler
 * runs. Values go to the handler only. Errors name the slot, never the record id or a value, so
 * nothing sensitive can reach an MCP error cause or a log line.
 */
import type { CommandContext, CommandDescriptor, CredentialSlot } from '../catalog/descriptor.js';
import { AhError } from '../errors.js';
import type { VaultStore } from '../secrets/types.js';

export type CredentialIds = Readonly<Record<string, string>>;
export type ResolvedCredentials = CommandContext['credentials'];

/** What credential checks need of a command. */
type SlotOwner = Pick<CommandDescriptor, 'id' | 'credentialSlots'>;

const ID_PATTERN = /^\S(?:.*\S)?$/;

function fail(descriptor: SlotOwner, message: string, hint?: string, code = 'INVALID_ARGUMENT'): AhError {
  return new AhError({ code, message, hint, operation: descriptor.id });
}

/**
 * Validates the raw `credentials` value of a call (MCP argument or CLI `--credential` pairs)
 * against the command's slots. Runs before admission, so a bad mapping costs no execution slot.
 */
export function checkCredentialIds(descriptor: SlotOwner, raw: unknown): CredentialIds {
  const slots = descriptor.credentialSlots ?? [];
  if (raw === undefined || raw === null) raw = {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw fail(descriptor, `credentials must be an object mapping slot names to vault record ids`);
  }
  const entries = Object.entries(raw as Record<string, unknown>);
  if (slots.length === 0 && entries.length > 0) throw fail(descriptor, `${descriptor.id} takes no credentials`);
  const ids: Record<string, string> = {};
  for (const [slot, id] of entries) {
    if (!slots.some((s) => s.name === slot)) {
      throw fail(
        descriptor,
        `unknown credential slot '${slot}' for ${descriptor.id}`,
        `Known slots: ${slots.map((s) => s.name).join(', ')}.`,
      );
    }
    if (typeof id !== 'string' || !ID_PATTERN.test(id)) throw fail(descriptor, `credentials.${slot} must be a non-empty vault record id`);
    ids[slot] = id;
  }
  const missing = slots.find((slot) => slot.required && ids[slot.name] === undefined);
  if (missing) {
    throw fail(
      descriptor,
      `${descriptor.id} needs a vault record in credential slot '${missing.name}'`,
      `Pass credentials.${missing.name} (MCP) or --credential ${missing.name}=ID (CLI); list candidates with ah.secrets.list kind '${missing.acceptedKinds[0] ?? ''}'.`,
      'SECRET_REQUIRED',
    );
  }
  return ids;
}

/** Vault failures a call reports in its own fixed words: the vault's message may name the record. */
const VAULT_FAILURES: Readonly<Record<string, string>> = {
  VAULT_LOCKED: 'the secrets vault cannot be opened (damaged file or wrong key)',
  VAULT_KEY_UNAVAILABLE: 'the secrets vault key is not available',
};

/** Reads each named record from the vault and checks its kind against the slot. */
export async function resolveCredentials(descriptor: SlotOwner, ids: CredentialIds, vault: VaultStore): Promise<ResolvedCredentials> {
  const resolved: Record<string, ResolvedCredentials[string]> = {};
  for (const [slotName, id] of Object.entries(ids)) {
    const slot = descriptor.credentialSlots?.find((s) => s.name === slotName) as CredentialSlot;
    let record: Awaited<ReturnType<VaultStore['read']>>;
    try {
      record = await vault.read(id);
    } catch (error) {
      const code = error instanceof AhError ? error.code : '';
      if (code === 'VAULT_SECRET_NOT_FOUND' || code === 'VAULT_NOT_INITIALIZED') {
        throw fail(
          descriptor,
          `the vault record named in credential slot '${slotName}' does not exist`,
          `Call ah.secrets.list with kind '${slot.acceptedKinds[0] ?? ''}' to see the stored ids, or add one with 'ah secrets add'.`,
          'SECRET_NOT_FOUND',
        );
      }
      const message = VAULT_FAILURES[code];
      if (message !== undefined) throw fail(descriptor, message, (error as AhError).hint, code);
      throw error;
    }
    if (!slot.acceptedKinds.includes(record.kind)) {
      throw fail(
        descriptor,
        `credential slot '${slotName}' accepts ${slot.acceptedKinds.join(' or ')}, but the named record is a different kind`,
        `Call ah.secrets.list with kind '${slot.acceptedKinds[0] ?? ''}' to find a matching record.`,
        'SECRET_KIND_MISMATCH',
      );
    }
    resolved[slotName] = { id: record.id, kind: record.kind, values: Object.freeze({ ...record.values }) };
  }
  return Object.freeze(resolved);
}

/** The "Credential slots:" paragraph for a tool description (no live record ids, ever). */
export function credentialParagraph(slots: readonly CredentialSlot[]): string {
  const lines = slots.map((slot) => {
    const kinds = slot.acceptedKinds.join(', ');
    const need = slot.required ? 'required' : 'optional';
    return `- ${slot.name} (${need}; kinds: ${kinds}): ${slot.description} Pass {"credentials":{"${slot.name}":"<id>"}}; if the id is unknown, call ah.secrets.list with {"kind":"${slot.acceptedKinds[0] ?? ''}"}.`;
  });
  // Repeated in every tool with slots (57 of ~100): every word here is paid per tool.
  return ['Credential slots: pass record ids only; secret values never travel over MCP.', ...lines].join('\n');
}

/**
 * The `credentials` property added to the MCP input schema of a command with slots. No
 * descriptions: the tool description's credential paragraph already names each slot, its kinds
 * and how to find a record id, and this schema is repeated in every tool that has slots.
 */
export function credentialsSchema(slots: readonly CredentialSlot[]): Record<string, unknown> {
  const properties = Object.fromEntries(slots.map((slot) => [slot.name, { type: 'string', minLength: 1 }]));
  const required = slots.filter((s) => s.required).map((s) => s.name);
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}
