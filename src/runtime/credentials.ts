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

function invalid(descriptor: SlotOwner, message: string, hint?: string): AhError {
  return new AhError({ code: 'INVALID_ARGUMENT', message, hint, operation: descriptor.id });
}

function slotNames(slots: readonly CredentialSlot[]): string {
  return slots.map((s) => s.name).join(', ');
}

/**
 * Validates the raw `credentials` value of a call (MCP argument or CLI `--credential` pairs)
 * against the command's slots. Runs before admission, so a bad mapping costs no execution slot.
 */
export function checkCredentialIds(descriptor: SlotOwner, raw: unknown): CredentialIds {
  const slots = descriptor.credentialSlots ?? [];
  if (raw === undefined || raw === null) raw = {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw invalid(descriptor, `credentials must be an object mapping slot names to vault record ids`);
  }
  const entries = Object.entries(raw as Record<string, unknown>);
  if (slots.length === 0 && entries.length > 0) {
    throw invalid(descriptor, `${descriptor.id} takes no credentials`);
  }
  const ids: Record<string, string> = {};
  for (const [slot, id] of entries) {
    if (!slots.some((s) => s.name === slot)) {
      throw invalid(descriptor, `unknown credential slot '${slot}' for ${descriptor.id}`, `Known slots: ${slotNames(slots)}.`);
    }
    if (typeof id !== 'string' || !ID_PATTERN.test(id)) {
      throw invalid(descriptor, `credentials.${slot} must be a non-empty vault record id`);
    }
    ids[slot] = id;
  }
  for (const slot of slots) {
    if (slot.required && ids[slot.name] === undefined) {
      throw new AhError({
        code: 'SECRET_REQUIRED',
        message: `${descriptor.id} needs a vault record in credential slot '${slot.name}'`,
        hint: `Pass credentials.${slot.name} (MCP) or --credential ${slot.name}=ID (CLI); list candidates with ah.secrets.list kind '${slot.acceptedKinds[0] ?? ''}'.`,
        operation: descriptor.id,
      });
    }
  }
  return ids;
}

function resolutionError(code: string, message: string, hint: string | undefined, descriptor: SlotOwner): AhError {
  return new AhError({ code, message, hint, operation: descriptor.id });
}

/** Reads each named record from the vault and checks its kind against the slot. */
export async function resolveCredentials(descriptor: SlotOwner, ids: CredentialIds, vault: VaultStore): Promise<ResolvedCredentials> {
  const resolved: Record<string, { id: string; kind: string; values: Readonly<Record<string, string>> }> = {};
  for (const [slotName, id] of Object.entries(ids)) {
    const slot = descriptor.credentialSlots?.find((s) => s.name === slotName) as CredentialSlot;
    let record: Awaited<ReturnType<VaultStore['read']>>;
    try {
      record = await vault.read(id);
    } catch (error) {
      const code = error instanceof AhError ? error.code : '';
      if (code === 'VAULT_SECRET_NOT_FOUND' || code === 'VAULT_NOT_INITIALIZED') {
        throw resolutionError(
          'SECRET_NOT_FOUND',
          `the vault record named in credential slot '${slotName}' does not exist`,
          `Call ah.secrets.list with kind '${slot.acceptedKinds[0] ?? ''}' to see the stored ids, or add one with 'ah secrets add'.`,
          descriptor,
        );
      }
      if (code === 'VAULT_LOCKED') {
        // Fixed wording: the vault's own message may name the record.
        throw resolutionError(code, 'the secrets vault cannot be opened (damaged file or wrong key)', (error as AhError).hint, descriptor);
      }
      if (code === 'VAULT_KEY_UNAVAILABLE') {
        throw resolutionError(code, 'the secrets vault key is not available', (error as AhError).hint, descriptor);
      }
      throw error;
    }
    if (!slot.acceptedKinds.includes(record.kind)) {
      throw resolutionError(
        'SECRET_KIND_MISMATCH',
        `credential slot '${slotName}' accepts ${slot.acceptedKinds.join(' or ')}, but the named record is a different kind`,
        `Call ah.secrets.list with kind '${slot.acceptedKinds[0] ?? ''}' to find a matching record.`,
        descriptor,
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
    return `- ${slot.name} (${need}; kinds: ${kinds}): ${slot.description} Pass {"credentials":{"${slot.name}":"<record id>"}}; if you do not know the id, call ah.secrets.list with {"kind":"${slot.acceptedKinds[0] ?? ''}"}.`;
  });
  return ['Credential slots:', ...lines, 'Only record ids are passed; secret values never travel over MCP.'].join('\n');
}

/**
 * The `credentials` property added to the MCP input schema of a command with slots. No
 * descriptions: the tool description's credential paragraph already names each slot, its kinds
 * and how to find a record id, and this schema is repeated in every tool that has slots.
 */
export function credentialsSchema(slots: readonly CredentialSlot[]): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const slot of slots) {
    properties[slot.name] = { type: 'string', minLength: 1 };
  }
  const required = slots.filter((s) => s.required).map((s) => s.name);
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}
