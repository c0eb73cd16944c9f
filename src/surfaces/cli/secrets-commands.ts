/**
 * `ah secrets init|add|edit|remove`: CLI-only because they create or change secret values. Values
 * are typed at hidden prompts (or in the local browser page with --open), never taken from argv,
 * and every output carries metadata only.
 */
import { RootObject, Type } from '../../catalog/schema.js';
import { AhError } from '../../errors.js';
import { enterValues } from '../../secrets/entry.js';
import { createPrompter } from '../../secrets/prompt.js';
import type { SetupRequest } from '../../secrets/setup-client.js';
import { SECRET_KINDS, type SecretKind, type SecretMetadata } from '../../secrets/types.js';
import type { HostCliCommand, HostCliEnv } from './host-command.js';
import { err, out, printResult, renderJson } from './render.js';

const ID = Type.String({ minLength: 1, description: 'Record id (how commands and agents refer to it)' });
const KIND = Type.Union(
  SECRET_KINDS.map((k) => Type.Literal(k)),
  { description: 'Record kind' },
);
const LABEL = Type.Optional(Type.String({ description: 'Human label (default: the id)' }));
const DESCRIPTION = Type.Optional(Type.String({ description: 'Free-text description' }));
const OPEN = Type.Boolean({ default: false, description: 'Enter the values in the browser page of the running local HTTP server' });

function metadataOnly(m: SecretMetadata): SecretMetadata {
  return { id: m.id, kind: m.kind, label: m.label, description: m.description };
}

function requireTerminal(command: string): void {
  if (process.stdin.isTTY === true) return;
  throw new AhError({
    code: 'VAULT_INTERACTIVE_REQUIRED',
    message: `'ah secrets ${command}' asks for the values at hidden prompts, but stdin is not a terminal`,
    hint: `Run it in a terminal, or add --open to enter the values in the browser page of a running 'ah mcp serve --transport http'.`,
    operation: `secrets.${command}`,
  });
}

async function prompted(kind: SecretKind, mode: 'create' | 'edit'): Promise<Record<string, string>> {
  const prompter = createPrompter({ input: process.stdin, output: process.stderr, terminal: true });
  try {
    return await enterValues(prompter, kind, mode);
  } finally {
    prompter.close();
  }
}

async function openInBrowser(env: HostCliEnv, request: SetupRequest): Promise<number> {
  const { openSetup } = await import('../../secrets/setup-client.js');
  const { setup_url, opened } = await openSetup({ env: env.env, request });
  // The URL is the capability: printed for the user, never logged.
  out(env.json ? renderJson({ setup_url }) : setup_url);
  if (!env.quiet && !env.json) {
    err(
      opened
        ? 'Opened the setup page in your browser.'
        : 'Open this URL in a browser on this machine to enter the values (valid 10 minutes, once).',
    );
  }
  return 0;
}

const init: HostCliCommand = {
  id: 'secrets.init',
  title: 'Create the vault',
  description: 'Create the encrypted secrets vault (and, without AH_VAULT_MASTER_KEY, its key in the OS credential store). Safe to repeat.',
  inputSchema: RootObject({}),
  examples: [{ description: 'Create the vault', arguments: {} }],
  async run(_input, env) {
    const vault = env.catalog.vault;
    const { created } = await vault.init();
    const text = created ? `created the secrets vault: ${vault.path}` : `the secrets vault already exists: ${vault.path}`;
    return printResult(env, { path: vault.path, created }, text);
  },
};

const add: HostCliCommand = {
  id: 'secrets.add',
  title: 'Add a secret',
  description:
    'Add a record to the vault; its values are typed at hidden prompts (or in the browser with --open), never passed as arguments.',
  inputSchema: RootObject({ id: ID, kind: KIND, label: LABEL, description: DESCRIPTION, open: OPEN }),
  cli: { positionals: ['id'] },
  examples: [
    { description: 'A GitHub token, typed at a hidden prompt', arguments: { id: 'gh-main', kind: 'github-token', label: 'GitHub (work)' } },
    { description: 'A database login entered in the browser', arguments: { id: 'billing', kind: 'postgres', open: true } },
  ],
  async run(input, env) {
    const { id, kind, label, description } = input as { id: string; kind: SecretKind; label?: string; description?: string };
    if (input.open === true) return openInBrowser(env, { action: 'create', id, kind, label, description });
    requireTerminal('add');
    const vault = env.catalog.vault;
    // Fail before the user types anything: no vault, wrong key or a taken id.
    if ((await vault.list()).some((s) => s.id === id)) {
      throw new AhError({
        code: 'VAULT_SECRET_EXISTS',
        message: `a secret with id '${id}' already exists`,
        hint: "Use 'ah secrets edit' to change it, or choose another id.",
        operation: 'secrets.add',
      });
    }
    const values = await prompted(kind, 'create');
    const saved = metadataOnly(await vault.add({ id, kind, label, description: description ?? null, values }));
    return printResult(env, saved, `added secret '${saved.id}' (${saved.kind})`);
  },
};

const edit: HostCliCommand = {
  id: 'secrets.edit',
  title: 'Edit a secret',
  description:
    'Change a record: label and description from flags, values at hidden prompts (empty keeps the stored value) or in the browser with --open.',
  inputSchema: RootObject({ id: ID, label: LABEL, description: DESCRIPTION, open: OPEN }),
  cli: { positionals: ['id'] },
  examples: [
    { description: 'Replace the token of a record', arguments: { id: 'gh-main' } },
    { description: 'Relabel and re-enter values in the browser', arguments: { id: 'billing', label: 'Billing DB', open: true } },
  ],
  async run(input, env) {
    const { id, label, description } = input as { id: string; label?: string; description?: string };
    if (input.open === true) return openInBrowser(env, { action: 'edit', id, label, description });
    requireTerminal('edit');
    const vault = env.catalog.vault;
    const current = (await vault.list()).find((s) => s.id === id);
    if (!current) {
      throw new AhError({
        code: 'VAULT_SECRET_NOT_FOUND',
        message: `no secret with id '${id}'`,
        hint: "Run 'ah secrets list' to see the stored ids.",
        operation: 'secrets.edit',
      });
    }
    const values = await prompted(current.kind, 'edit');
    const saved = metadataOnly(await vault.edit(id, { label, description, values }));
    return printResult(env, saved, `updated secret '${saved.id}' (${saved.kind})`);
  },
};

const remove: HostCliCommand = {
  id: 'secrets.remove',
  title: 'Remove a secret',
  description: 'Delete a record from the vault. Commands that name its id stop working until a record with that id exists again.',
  inputSchema: RootObject({ id: ID }),
  cli: { positionals: ['id'] },
  examples: [{ description: 'Delete a record', arguments: { id: 'gh-main' } }],
  async run(input, env) {
    const removed = metadataOnly(await env.catalog.vault.remove(input.id as string));
    return printResult(env, removed, `removed secret '${removed.id}' (${removed.kind})`);
  },
};

export const SECRETS_CLI_COMMANDS: readonly HostCliCommand[] = [init, add, edit, remove];
