/** Codex's registration, kept in config.toml and edited by ah as text (see toml-table.ts). */
import { AhError } from '../errors.js';
import { readText } from './json-site.js';
import type { McpSite, Probe } from './site.js';
import type { FileStep, Step } from './steps.js';
import { editServerTable } from './toml-table.js';
import { LEGACY_NAME, type Launch, SERVER_NAME } from './types.js';
import { probeCodexToml } from './targets/codex-probe.js';

function edited(path: string, text: string | null, desired: Launch | undefined): string | null {
  let next: string | null = text ?? '';
  for (const [name, launch] of [
    [LEGACY_NAME, undefined],
    [SERVER_NAME, desired],
  ] as const) {
    next = next === null ? null : editServerTable(next, name, launch);
  }
  if (next === null) {
    throw new AhError({
      code: 'AI_CONFIG_UNPARSABLE',
      message: `${path} changed while ah was editing it`,
      hint: 'Run the command again.',
      operation: 'ai.config',
    });
  }
  return text === null && desired === undefined ? null : next;
}

export class TomlSite implements McpSite {
  registrar: 'file' | 'cli' = 'file';
  private text: string | null = null;
  private delegate: McpSite | null = null;

  constructor(
    readonly path: string,
    /** The Codex CLI site, for an entry ah cannot edit as a plain table. */
    private readonly fallback: () => McpSite,
  ) {}

  async probe(): Promise<Probe> {
    const probe = await probeCodexToml(this.path);
    this.text = await readText(this.path);
    const plain = (name: string, launch: Launch | undefined) => this.text === null || editServerTable(this.text, name, launch) !== null;
    const editable = plain(LEGACY_NAME, undefined) && plain(SERVER_NAME, undefined);
    if (!editable) {
      this.delegate = this.fallback();
      this.registrar = this.delegate.registrar;
    }
    return probe;
  }

  private step(desired: Launch | undefined): FileStep {
    const edit = (current: string | null) => edited(this.path, current, desired);
    return { kind: 'file', path: this.path, before: this.text, after: edit(this.text), edit, config: true };
  }

  install(desired: Launch, probe: Probe): Step[] {
    return this.delegate ? this.delegate.install(desired, probe) : [this.step(desired)];
  }

  uninstall(probe: Probe): Step[] {
    if (this.delegate) return this.delegate.uninstall(probe);
    return probe.present || probe.legacy ? [this.step(undefined)] : [];
  }
}
