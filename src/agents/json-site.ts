/**
 * A registration kept in a JSON-with-comments file that we edit ourselves (Cursor, VS Code,
 * OpenCode, Gemini's project settings, and the fallbacks where an agent CLI is missing).
 */
import { readFile } from 'node:fs/promises';
import { readLaunch } from './formats.js';
import type { EntryFormat } from './formats.js';
import { type JsonPath, parseConfig, setAt, valueAt } from './jsonc.js';
import type { McpSite, Probe } from './site.js';
import type { FileStep } from './steps.js';
import { LEGACY_NAME, type Launch, SERVER_NAME } from './types.js';

export async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Probes `<keys>.<name>` in a JSONC file (a missing file holds nothing). */
export async function probeJson(path: string, keys: readonly string[]): Promise<Probe & { text: string | null }> {
  const text = await readText(path);
  if (text === null) return { present: false, current: null, legacy: false, text };
  const root = parseConfig(text, path);
  const entry = valueAt(root, [...keys, SERVER_NAME]);
  return {
    present: entry !== undefined,
    current: entry === undefined ? null : readLaunch(entry),
    legacy: valueAt(root, [...keys, LEGACY_NAME]) !== undefined,
    text,
  };
}

/** A file step that sets (or removes, with `entry` undefined) our entry and drops the legacy one. */
export function jsonEditStep(path: string, keys: readonly string[], before: string | null, entry: unknown): FileStep {
  const edit = (text: string | null): string | null => {
    if (text === null && entry === undefined) return null;
    const root = text === null ? {} : parseConfig(text, path);
    let next: string = text ?? '';
    if (valueAt(root, [...keys, LEGACY_NAME]) !== undefined) next = setAt(next, [...keys, LEGACY_NAME] as JsonPath, undefined);
    if (entry !== undefined || valueAt(root, [...keys, SERVER_NAME]) !== undefined) {
      next = setAt(next === '' ? null : next, [...keys, SERVER_NAME] as JsonPath, entry);
    }
    return next === '' ? text : next;
  };
  return { kind: 'file', path, before, after: edit(before), edit };
}

export class JsonSite implements McpSite {
  readonly registrar = 'file' as const;
  private text: string | null = null;

  constructor(
    readonly path: string,
    private readonly keys: readonly string[],
    private readonly format: EntryFormat,
  ) {}

  async probe(): Promise<Probe> {
    const { text, ...probe } = await probeJson(this.path, this.keys);
    this.text = text;
    return probe;
  }

  install(desired: Launch): FileStep[] {
    return [jsonEditStep(this.path, this.keys, this.text, this.format(desired))];
  }

  uninstall(probe: Probe): FileStep[] {
    if (!probe.present && !probe.legacy) return [];
    return [jsonEditStep(this.path, this.keys, this.text, undefined)];
  }
}
