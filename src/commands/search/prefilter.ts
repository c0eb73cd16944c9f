/**
 * The byte test that keeps a file from being decoded and matched: does it hold at least one of
 * the literals every match contains (a literal search's own text, or a regex's required set from
 * matcher.ts)? One literal is one native `indexOf`. Several would be one full pass each, and a
 * file without a hit (nearly all of them) pays every pass: `use(Effect|State)\(` over 146 MB of
 * node_modules took 117 ms of CPU that way against 57 ms for one of its literals. Literals of an
 * alternation usually share a run of bytes (`use` here), so the test looks for that anchor once
 * and checks each literal around every place it occurs (48 ms for the same files).
 */

/** A shared run shorter than this occurs too often in text to be worth anchoring on. */
const MIN_ANCHOR = 3;

/**
 * Anchor hits allowed per file before the test falls back to one pass per literal from where it
 * stands: a common anchor (`the`, `ion`) must not cost more than the passes it replaces.
 */
function candidateBudget(length: number): number {
  return 32 + (length >> 8);
}

export type Prefilter = (bytes: Buffer) => boolean;

/** The longest byte run found in every literal (the first such run of the shortest), or null. */
export function sharedRun(literals: readonly Buffer[]): Buffer | null {
  const shortest = literals.reduce((a, b) => (b.length < a.length ? b : a));
  for (let length = shortest.length; length >= MIN_ANCHOR; length -= 1) {
    for (let start = 0; start + length <= shortest.length; start += 1) {
      const run = shortest.subarray(start, start + length);
      if (literals.every((literal) => literal.indexOf(run) !== -1)) return Buffer.from(run);
    }
  }
  return null;
}

/** Whether `bytes` holds `literal` starting at `at`. */
function holdsAt(bytes: Buffer, literal: Buffer, at: number): boolean {
  const end = at + literal.length;
  if (at < 0 || end > bytes.length) return false;
  // Most places fail on the literal's last byte; Buffer.compare checks its offsets on every call.
  if (bytes[end - 1] !== literal[literal.length - 1]) return false;
  return bytes.compare(literal, 0, literal.length, at, end) === 0;
}

/** The test for `literals` (at least one). */
export function prefilterFor(literals: readonly Buffer[]): Prefilter {
  const first = literals[0];
  if (first === undefined) throw new Error('a prefilter needs at least one literal');
  if (literals.length === 1) return (bytes) => bytes.indexOf(first) !== -1;
  const anyPass = (bytes: Buffer, from: number) => literals.some((literal) => bytes.indexOf(literal, from) !== -1);
  const anchor = sharedRun(literals);
  if (anchor === null) return (bytes) => anyPass(bytes, 0);
  // Where the anchor sits in each literal: a literal at q puts the anchor at q + offset, so every
  // occurrence of a literal is found by looking back from an occurrence of the anchor.
  const offsets = literals.map((literal) => literal.indexOf(anchor));
  const widest = Math.max(...offsets);
  return (bytes) => {
    let budget = candidateBudget(bytes.length);
    for (let at = bytes.indexOf(anchor); at !== -1; at = bytes.indexOf(anchor, at + 1)) {
      for (let i = 0; i < literals.length; i += 1) if (holdsAt(bytes, literals[i] as Buffer, at - (offsets[i] as number))) return true;
      // Every literal whose anchor lies before `at` has been checked; the rest start at or after
      // at - widest.
      if (--budget === 0) return anyPass(bytes, Math.max(0, at + 1 - widest));
    }
    return false;
  };
}
