/** Schemas, effects and the common front of the three project commands. */
import { stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import type { CommandContext } from '../../catalog/descriptor.js';
import type { Effects } from '../../catalog/effects.js';
import { Closed, Nullable, RootObject, Type } from '../../catalog/schema.js';
import { AhError } from '../../errors.js';
import { ManifestReader } from './manifests.js';
import { type Scan, scanProject } from './scan.js';
import { shellQuote } from '../../platform/text.js';

export const PROJECT_EFFECTS: Effects = {
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  effects: ['filesystem_read'],
  risk: 'low',
  impact: 'Reads project files and manifests; runs no package manager or shell and changes nothing.',
  reversibility: 'yes',
};

export const INPUT = RootObject({
  path: Type.String({ minLength: 1, default: '.', description: 'Project directory, relative to the working directory' }),
});

export const FILE_REF = Closed({ kind: Type.String(), path: Type.String() });
export const SUGGESTION = Closed({
  command: Type.Array(Type.String()),
  kind: Type.String(),
  confidence: Type.Union([Type.Literal('high'), Type.Literal('medium'), Type.Literal('low')]),
  reason: Type.String(),
});
export const VERSION = Closed({
  kind: Type.String(),
  path: Type.String(),
  name: Nullable(Type.String()),
  version: Nullable(Type.String()),
  confidence: Type.Union([Type.Literal('high'), Type.Literal('medium'), Type.Literal('low')]),
});

export const SCAN_NOTE =
  'The scan goes at most 4 directories deep and skips .git, node_modules, target, dist, build and similar dependency or output folders.';

export interface Opened {
  root: string;
  absolute: string;
  scan: Scan;
  reader: ManifestReader;
}

export async function openProject(path: string, ctx: CommandContext): Promise<Opened> {
  const absolute = isAbsolute(path) ? path : resolve(ctx.cwd, path);
  const info = await stat(absolute).catch(() => undefined);
  if (!info) {
    throw new AhError({
      code: 'PATH_NOT_FOUND',
      message: `no such directory: ${path}`,
      hint: 'Check the path, or set --cwd / context.cwd.',
    });
  }
  if (!info.isDirectory()) {
    throw new AhError({ code: 'PATH_INVALID_TYPE', message: `${path} is not a directory`, hint: 'Pass the project directory.' });
  }
  const scan = await scanProject(absolute, ctx.signal);
  return { root: path, absolute, scan, reader: new ManifestReader(absolute) };
}

export function renderCommands(commands: readonly { command: string[]; kind: string }[]): string[] {
  const width = Math.max(0, ...commands.map((c) => c.kind.length));
  return commands.map((c) => `${c.kind.padEnd(width)}  ${c.command.map(shellQuote).join(' ')}`);
}
