/**
 * The search text engine, synchronous and shared by every thread that runs it. A search is cut
 * into units: each directory directly under a root (its whole subtree) and each run of files
 * between them, in walk order. Any thread (a worker, or the CLI's main thread) can run any unit
 * from plain data; merging the unit results in unit order gives exactly the files and hits of
 * one walk of every root in order, whatever ran where.
 */
import type { Env } from '../../platform/paths.js';
import { literalBytes } from './byte-hits.js';
import { displayPath } from './display-path.js';
import { compileGlobs } from './globs.js';
import { prefilterFor } from './prefilter.js';
import type { Root } from './roots.js';
import { type ContextLine, type FileResult, type ScanSpec, type ScanState, scanFile } from './scan.js';
import {
  inheritedLayers,
  type Layer,
  listSearchable,
  makeLayer,
  realDirectory,
  type WalkItem,
  type WalkScope,
  walkSubtree,
} from './walk.js';

/** The ignore rules in force at a root's top level, as text (rebuilt by whichever thread needs them). */
export interface LayerGroup {
  layers: { base: string; text: string }[];
  inRepo: boolean;
  /** Real path of the root (followSymlinks only): a unit never re-enters it. */
  rootReal: string | null;
}

export type Unit =
  /** Files already known, in order: a file root, or a root's files between two directories. */
  | { kind: 'files'; files: string[]; relatives: string[]; filtered: boolean }
  /** A directory directly under a root, walked whole. */
  | { kind: 'dir'; absolute: string; relative: string; group: number };

export interface SearchJob {
  /** `text`: read and match file contents; `files`: keep the files whose shown path holds `query`. */
  mode: 'text' | 'files';
  query: string;
  /** Working directory that match paths are shown relative to. */
  cwd: string;
  spec: ScanSpec;
  globs: string[];
  followSymlinks: boolean;
  groups: LayerGroup[];
  units: Unit[];
}

/** One hit as search text reports it (the shape of its output's matches). */
export interface MatchRecord {
  path: string;
  line: number;
  column: number;
  text: string;
  context_before: ContextLine[];
  context_after: ContextLine[];
}

export interface UnitResult {
  /** The unit's hits in walk order (at most spec.maxHits), built where they were found. */
  matches: MatchRecord[];
  /** Files mode: the shown paths that hold the query, in walk order (at most spec.maxHits). */
  paths: string[];
  hits: number;
  binary: number;
  large: number;
  symlinks: number;
}

/**
 * Cuts the search into units: lists each root directory (with its inherited and own ignore rules)
 * on the calling thread. Symlinks skipped at the roots' top level are counted in `symlinks`.
 */
export function planSearch(
  roots: readonly Root[],
  options: Omit<SearchJob, 'mode' | 'query' | 'groups' | 'units'> & Partial<Pick<SearchJob, 'mode' | 'query'>> & { env: Env },
): { job: SearchJob; symlinks: number } {
  const { env, mode = 'text', query = '', ...shared } = options;
  const accept = compileGlobs(options.globs);
  const groups: LayerGroup[] = [];
  const units: Unit[] = [];
  let symlinks = 0;
  for (const root of roots) {
    if (root.isFile) {
      // A file named as a root is searched whatever the globs say.
      units.push({ kind: 'files', files: [root.absolute], relatives: [root.given], filtered: false });
      continue;
    }
    const inherited = inheritedLayers(root.absolute, env);
    const scope: WalkScope = { inRepo: inherited.inRepo, followSymlinks: options.followSymlinks, symlinks: 0 };
    const listed = listSearchable(root.absolute, '', inherited.layers, scope);
    symlinks += scope.symlinks;
    if (listed === null) continue;
    const group = groups.length;
    groups.push({
      layers: listed.active.map(({ base, text }) => ({ base, text })),
      inRepo: scope.inRepo,
      rootReal: options.followSymlinks ? realDirectory(root.absolute) : null,
    });
    let files: string[] = [];
    let relatives: string[] = [];
    const flush = () => {
      if (files.length > 0) units.push({ kind: 'files', files, relatives, filtered: true });
      files = [];
      relatives = [];
    };
    for (const item of listed.items) {
      if (item.isDir) {
        flush();
        units.push({ kind: 'dir', absolute: item.absolute, relative: item.relative, group });
      } else if (!accept || accept(item.relative)) {
        files.push(item.absolute);
        relatives.push(item.relative);
      }
    }
    flush();
  }
  return { job: { ...shared, mode, query, groups, units }, symlinks };
}

/**
 * Whether a job matches file contents with a regex (not a literal, not file names): the only
 * kind whose work costs CPU on every byte and can hold a thread in one match.
 */
export function isRegexSearch(job: Pick<SearchJob, 'mode' | 'spec'>): boolean {
  return job.mode === 'text' && job.spec.literal === null;
}

/** Matches a worker sends ahead of its unit's result (large messages hold the receiving thread). */
const MATCHES_PER_MESSAGE = 512;

/**
 * Per-thread state of one job: compiled globs, rebuilt ignore layers, the regex, the read buffer.
 * Its `run` runs a unit; null when stopped. With `emit`, matches leave in batches of
 * MATCHES_PER_MESSAGE as they are found (in order), and the result holds only the rest.
 */
export function jobRunner(job: SearchJob, state: ScanState = { buffer: null }) {
  const accept = compileGlobs(job.globs);
  const spec = job.spec;
  // Files mode reads no contents: no needles, no regex.
  const literals = job.mode === 'files' ? null : spec.literal !== null ? [spec.literal] : (spec.required ?? null);
  const holdsLiteral = literals === null || literals.length === 0 ? null : prefilterFor(literals.map((l) => Buffer.from(l, 'utf8')));
  const re = isRegexSearch(job) ? new RegExp(spec.source, spec.flags) : null;
  // A literal search without context lines is matched on the file's bytes (byte-hits.ts).
  const needle = job.mode === 'text' && spec.literal !== null && spec.context === 0 ? literalBytes(spec.literal) : null;
  const layers = new Map<number, Layer[]>();
  const layersOf = (group: number): Layer[] => {
    let built = layers.get(group);
    if (!built) {
      built = (job.groups[group] as LayerGroup).layers.map((l) => makeLayer(l.base, l.text));
      layers.set(group, built);
    }
    return built;
  };

  // One spec object per runner; maxHits is lowered per file by the hits the unit already has.
  const fileSpec: ScanSpec = { ...spec };
  return {
    run(index: number, stopped: () => boolean, emit?: (matches: MatchRecord[]) => void): UnitResult | null {
      const unit = job.units[index] as Unit;
      const result: UnitResult = { matches: [], paths: [], hits: 0, binary: 0, large: 0, symlinks: 0 };
      const scan = (absolutes: readonly string[], relatives: readonly string[], filtered: boolean): boolean => {
        for (let i = 0; i < absolutes.length; i += 1) {
          if (stopped()) return false;
          if (filtered && accept && !accept(relatives[i] as string)) continue;
          const path = absolutes[i] as string;
          if (job.mode === 'files') {
            const shown = displayPath(job.cwd, path);
            if (!shown.includes(job.query)) continue;
            result.paths.push(shown);
            result.hits += 1;
            if (result.hits >= spec.maxHits) return false;
            continue;
          }
          fileSpec.maxHits = spec.maxHits - result.hits;
          const outcome: FileResult = scanFile(fileSpec, path, state, holdsLiteral, re, needle);
          if (outcome === 'b') result.binary += 1;
          else if (outcome === 'l') result.large += 1;
          else if (outcome !== 'n' && outcome !== 'g') {
            const shown = displayPath(job.cwd, path);
            for (const hit of outcome) {
              result.matches.push({
                path: shown,
                line: hit.line,
                column: hit.column,
                text: hit.text,
                context_before: hit.before,
                context_after: hit.after,
              });
            }
            result.hits += outcome.length;
            if (emit && result.matches.length >= MATCHES_PER_MESSAGE) {
              emit(result.matches);
              result.matches = [];
            }
            // Later units can only come after this one: the unit never needs more hits than that.
            if (result.hits >= spec.maxHits) return false;
          }
        }
        return true;
      };
      if (unit.kind === 'files') {
        scan(unit.files, unit.relatives, unit.filtered);
        return stopped() ? null : result;
      }
      const group = job.groups[unit.group] as LayerGroup;
      const scope: WalkScope = { inRepo: group.inRepo, followSymlinks: job.followSymlinks, symlinks: 0 };
      const ancestors = group.rootReal === null ? null : new Set([group.rootReal]);
      const item: WalkItem = { absolute: unit.absolute, relative: unit.relative, isDir: true };
      walkSubtree(item, layersOf(unit.group), scope, ancestors, (a, r) => scan(a, r, true), stopped);
      result.symlinks = scope.symlinks;
      return stopped() ? null : result;
    },
  };
}
