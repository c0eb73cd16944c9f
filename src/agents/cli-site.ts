/**
 * A registration made through the agent's own CLI (`claude mcp add`, …). The probe still reads the
 * client's config file (read-only, no process started), so an identical registration costs nothing.
 * A replacement is remove + add; when the add fails, the previous entry is added back.
 */
import type { McpSite, Probe } from './site.js';
import type { RunStep, Step } from './steps.js';
import { LEGACY_NAME, type Launch, SERVER_NAME } from './types.js';

export interface CliSpec {
  /** Bare name (as shown) and absolute path (as run). */
  name: string;
  program: string;
  /** The config file the CLI writes, and the probe for it. */
  path: string;
  probe(): Promise<Probe>;
  addArgs(name: string, launch: Launch): string[];
  removeArgs(name: string): string[];
  ensureDirs?: string[];
}

export class CliSite implements McpSite {
  readonly registrar = 'cli' as const;
  readonly path: string;

  constructor(private readonly spec: CliSpec) {
    this.path = spec.path;
  }

  probe(): Promise<Probe> {
    return this.spec.probe();
  }

  private step(args: string[], restore?: string[]): RunStep {
    const s = this.spec;
    const step: RunStep = { kind: 'run', program: s.program, name: s.name, args };
    if (s.ensureDirs) step.ensureDirs = s.ensureDirs;
    if (restore) step.restore = restore;
    return step;
  }

  install(desired: Launch, probe: Probe): Step[] {
    const steps: Step[] = [];
    if (probe.legacy) steps.push(this.step(this.spec.removeArgs(LEGACY_NAME)));
    if (probe.present) steps.push(this.step(this.spec.removeArgs(SERVER_NAME)));
    const restore = probe.current ? this.spec.addArgs(SERVER_NAME, probe.current) : undefined;
    steps.push(this.step(this.spec.addArgs(SERVER_NAME, desired), restore));
    return steps;
  }

  uninstall(probe: Probe): Step[] {
    const steps: Step[] = [];
    if (probe.legacy) steps.push(this.step(this.spec.removeArgs(LEGACY_NAME)));
    if (probe.present) steps.push(this.step(this.spec.removeArgs(SERVER_NAME)));
    return steps;
  }
}

/** `-- CMD ARGS…` for CLIs that take the server's command after a separator. */
export function afterSeparator(launch: Launch & { transport: 'stdio' }): string[] {
  return ['--', launch.command, ...launch.args];
}
