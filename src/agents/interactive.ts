/**
 * The interactive install on a terminal: scope, components, transport (the managed item shows the
 * service's live state), URL, then the summary of every command and file change and a confirm.
 * Prompts write to stderr so stdout stays the report's.
 */
import * as prompts from '@clack/prompts';
import { AhError } from '../errors.js';
import { type ManagedInput, type ManagedPlan, planManaged } from './managed.js';
import type { TargetSpec } from './target.js';
import type { Scope, Transport } from './types.js';
import { checkMcpUrl, DEFAULT_HTTP_URL } from './url.js';

const io = { input: process.stdin, output: process.stderr };

export interface Answers {
  scope: Scope | undefined;
  mcp: boolean;
  rules: boolean;
  transport: Transport;
  url: string | undefined;
}

/** A cancelled prompt (Ctrl-C, Esc) ends the flow as a "no". */
class Declined extends Error {}

function answer<T>(value: T | symbol): Exclude<T, symbol> {
  if (prompts.isCancel(value)) throw new Declined();
  return value as Exclude<T, symbol>;
}

function managedLabel(plan: ManagedPlan): string {
  switch (plan.state) {
    case 'running':
      return `managed service (running at ${plan.endpoint})`;
    case 'stopped':
      return 'managed service (installed, stopped; will be started)';
    default:
      return 'managed service (not installed; will be installed)';
  }
}

async function managedOption(input: ManagedInput): Promise<ManagedPlan | null> {
  try {
    const plan = await planManaged(input);
    return plan.state === 'unusable' ? null : plan;
  } catch {
    // Unsupported platform or unreachable manager: the item is hidden.
    return null;
  }
}

/** Asks the questions; null when the user cancelled. */
export async function ask(specs: readonly TargetSpec[], managed: ManagedInput): Promise<Answers | null> {
  try {
    prompts.intro(`ah ai install ${specs.length === 1 ? specs[0]?.name : 'all'}`, io);
    let scope: Scope | undefined;
    const only = specs.length === 1 ? specs[0] : undefined;
    if (only && only.scopes.length > 1) {
      scope = answer(
        await prompts.select<Scope>({
          ...io,
          message: 'Scope',
          initialValue: only.defaultScope,
          options: only.scopes.map((s) => ({ value: s, label: s, hint: s === only.defaultScope ? 'default' : undefined })),
        }),
      );
    }
    const parts = answer(
      await prompts.multiselect<'mcp' | 'rules'>({
        ...io,
        message: 'Components',
        initialValues: ['mcp', 'rules'],
        required: false,
        options: [
          { value: 'mcp', label: 'MCP server registration' },
          { value: 'rules', label: 'rules block in the agent instructions file' },
        ],
      }),
    );
    if (parts.length === 0) {
      throw new AhError({
        code: 'AI_NOTHING_SELECTED',
        message: 'no component was selected',
        hint: 'Select the MCP registration, the rules block or both.',
        operation: 'ai.install',
      });
    }
    let transport: Transport = 'stdio';
    let url: string | undefined;
    if (parts.includes('mcp')) {
      const plan = await managedOption(managed);
      const options: { value: Transport; label: string }[] = [
        { value: 'stdio', label: 'stdio (the agent starts ah)' },
        { value: 'http', label: 'http (a server you run on 127.0.0.1)' },
      ];
      if (plan) options.push({ value: 'managed', label: managedLabel(plan) });
      transport = answer(await prompts.select<Transport>({ ...io, message: 'Transport', initialValue: 'stdio', options }));
      if (transport === 'http') {
        url = answer(
          await prompts.text({
            ...io,
            message: 'MCP endpoint',
            initialValue: DEFAULT_HTTP_URL,
            validate: (v) => {
              try {
                checkMcpUrl(v ?? '');
                return undefined;
              } catch (error) {
                return (error as Error).message;
              }
            },
          }),
        );
      }
    }
    return { scope, mcp: parts.includes('mcp'), rules: parts.includes('rules'), transport, url };
  } catch (error) {
    if (error instanceof Declined) {
      prompts.cancel('Nothing was changed.', io);
      return null;
    }
    throw error;
  }
}

/** Shows the summary and asks for the go-ahead. */
export async function confirmSummary(summary: readonly string[]): Promise<boolean> {
  prompts.note(summary.join('\n'), 'Changes', io);
  const yes = await prompts.confirm({ ...io, message: 'Apply these changes?', initialValue: true });
  const ok = !prompts.isCancel(yes) && yes === true;
  if (ok) prompts.outro('Applying.', io);
  else prompts.cancel('Nothing was changed.', io);
  return ok;
}

/** A spinner on the terminal while `work` runs (status checks). */
export async function withSpinner<T>(message: string, work: () => Promise<T>): Promise<T> {
  const s = prompts.spinner(io);
  s.start(message);
  try {
    return await work();
  } finally {
    s.stop('done');
  }
}
