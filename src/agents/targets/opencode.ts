/**
 * OpenCode: no usable CLI (`opencode mcp add` is interactive, always global and has no remove), so
 * its JSONC config is merged by us under the `mcp` key. Several files can hold config at one scope;
 * install writes the one that already has our entry (else the first that exists, else a new one)
 * and clears any other copies; uninstall clears every one.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { findOnPath } from '../../platform/which.js';
import { type AgentContext, opencodeUserDir } from '../context.js';
import { opencodeEntry, sameLaunch } from '../formats.js';
import { jsonEditStep, probeJson } from '../json-site.js';
import type { McpSite, Probe } from '../site.js';
import type { FileStep } from '../steps.js';
import type { TargetSpec } from '../target.js';
import type { Launch, Scope } from '../types.js';

const KEYS = ['mcp'];

interface Layer extends Probe {
  path: string;
  text: string | null;
}

function candidates(scope: Scope, ctx: AgentContext): string[] {
  if (scope === 'user') {
    const dir = opencodeUserDir(ctx);
    return ['config.json', 'opencode.json', 'opencode.jsonc'].map((f) => join(dir, f));
  }
  const root = ctx.projectRoot;
  return [
    join(root, 'opencode.json'),
    join(root, 'opencode.jsonc'),
    join(root, '.opencode', 'opencode.json'),
    join(root, '.opencode', 'opencode.jsonc'),
  ];
}

/** A new config starts with OpenCode's schema reference, as `opencode` itself writes one. */
const SEED = '{\n  "$schema": "https://opencode.ai/config.json"\n}\n';

function freshConfig(path: string, desired: Launch): FileStep {
  const inner = jsonEditStep(path, KEYS, SEED, opencodeEntry(desired));
  return { ...inner, before: null, edit: (text) => inner.edit(text ?? SEED) };
}

class OpencodeSite implements McpSite {
  readonly registrar = 'file' as const;
  path: string;
  private layers: Layer[] = [];

  constructor(
    private readonly files: string[],
    private readonly fresh: string,
  ) {
    this.path = files.find((f) => existsSync(f)) ?? fresh;
  }

  async probe(): Promise<Probe> {
    this.layers = await Promise.all(this.files.map(async (path) => ({ path, ...(await probeJson(path, KEYS)) })));
    const holders = this.layers.filter((l) => l.present);
    const first = holders[0];
    this.path = first?.path ?? this.layers.find((l) => l.text !== null)?.path ?? this.fresh;
    const agree = holders.every((h) => sameLaunch(h.current, first?.current ?? null));
    return { present: first !== undefined, current: first && agree ? first.current : null, legacy: this.layers.some((l) => l.legacy) };
  }

  install(desired: Launch): FileStep[] {
    const steps: FileStep[] = [];
    for (const layer of this.layers) {
      if (layer.path === this.path)
        steps.push(
          layer.text === null ? freshConfig(layer.path, desired) : jsonEditStep(layer.path, KEYS, layer.text, opencodeEntry(desired)),
        );
      else if (layer.present || layer.legacy) steps.push(jsonEditStep(layer.path, KEYS, layer.text, undefined));
    }
    return steps;
  }

  uninstall(): FileStep[] {
    return this.layers.filter((l) => l.present || l.legacy).map((l) => jsonEditStep(l.path, KEYS, l.text, undefined));
  }
}

export const opencode: TargetSpec = {
  name: 'opencode',
  scopes: ['project', 'user'],
  defaultScope: 'project',
  cli: 'opencode',
  mcpSite(scope, ctx) {
    const files = candidates(scope, ctx);
    return new OpencodeSite(
      files,
      scope === 'user' ? join(opencodeUserDir(ctx), 'opencode.jsonc') : join(ctx.projectRoot, 'opencode.json'),
    );
  },
  rulesFile(scope, ctx) {
    return { path: scope === 'user' ? join(opencodeUserDir(ctx), 'AGENTS.md') : join(ctx.projectRoot, 'AGENTS.md') };
  },
  detect(ctx) {
    return (
      findOnPath('opencode', ctx.env, ctx.platform) !== null ||
      existsSync(opencodeUserDir(ctx)) ||
      candidates('project', ctx).some((f) => existsSync(f))
    );
  },
};
