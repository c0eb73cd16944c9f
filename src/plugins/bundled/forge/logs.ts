/**
 * CI log search: a zip archive of log files (GitHub run logs) or one plain trace (GitLab), read
 * within byte bounds, ANSI escapes (CSI and OSC) stripped, lines matched one by one. The archive
 * is inflated entry by entry (fflate's streaming Unzip), so nothing larger than one chunk of
 * expanded text is held beyond the matches themselves.
 */
import { AhError } from '../../../errors.js';

export interface LogMatch {
  file: string;
  line: number;
  text: string;
}

export interface LogSearch {
  matches: LogMatch[];
  match_count: number;
  truncated: boolean;
}

// CSI: ESC [ params final; OSC: ESC ] … (BEL | ESC \); and lone two-byte escapes.
// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escape sequences start with the ESC control character.
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;
const MAX_LINE = 4000;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

export const WARNING_WORDS = ['warning', 'deprecated', 'deprecation', 'will be removed'];

/** A line predicate: literal, case-insensitive. */
export function lineMatcher(words: readonly string[]): (line: string) => boolean {
  const lowered = words.map((w) => w.toLowerCase());
  return (line) => {
    const l = line.toLowerCase();
    return lowered.some((w) => l.includes(w));
  };
}

/** Collects matching lines of one text stream fed in chunks (lines may span chunks). */
class LineCollector {
  private partial = '';
  private lineNo = 0;
  constructor(
    private readonly file: string,
    private readonly match: (line: string) => boolean,
    private readonly out: LogSearch,
    private readonly limit: number,
  ) {}

  push(text: string, final: boolean): void {
    const lines = (this.partial + text).split('\n');
    this.partial = final ? '' : (lines.pop() ?? '');
    if (final && lines.at(-1) === '') lines.pop();
    for (const raw of lines) {
      this.lineNo += 1;
      const line = stripAnsi(raw.endsWith('\r') ? raw.slice(0, -1) : raw);
      if (!this.match(line)) continue;
      this.out.match_count += 1;
      if (this.out.matches.length < this.limit) {
        this.out.matches.push({ file: this.file, line: this.lineNo, text: line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line });
      } else this.out.truncated = true;
    }
  }
}

/** Reads a response body up to `maxBytes`; over it → `<DOMAIN>_RESPONSE_TOO_LARGE`. */
export async function readBounded(response: Response, maxBytes: number, domain: string, operation: string): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? 'NaN');
  const tooLarge = () =>
    new AhError({
      code: `${domain.toUpperCase()}_RESPONSE_TOO_LARGE`,
      message: `the log is larger than max_body_bytes (${maxBytes})`,
      hint: 'Raise max_body_bytes, or narrow the search to one job.',
      domain,
      operation,
    });
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of response.body ?? []) {
    total += (chunk as Uint8Array).byteLength;
    if (total > maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(chunk as Uint8Array);
  }
  const all = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return all;
}

/** Searches every file of a zip archive, in archive order, within `maxExpanded` inflated bytes. */
export async function searchZip(
  archive: Uint8Array,
  match: (line: string) => boolean,
  options: { limit: number; maxExpanded: number; domain: string; operation: string },
): Promise<LogSearch> {
  const { Unzip, UnzipInflate } = await import('fflate');
  const out: LogSearch = { matches: [], match_count: 0, truncated: false };
  let expanded = 0;
  let failure: Error | null = null;
  // A zip starts with a local file header (PK\3\4), or is empty (end record PK\5\6); the
  // streaming reader would silently find no entries in anything else.
  const magic =
    archive.length >= 4
      ? (archive[0] as number) | ((archive[1] as number) << 8) | ((archive[2] as number) << 16) | ((archive[3] as number) << 24)
      : 0;
  if (magic !== 0x04034b50 && magic !== 0x06054b50) failure = new Error('no zip signature at the start of the archive');
  const unzip = new Unzip((file) => {
    if (file.name.endsWith('/') || failure) return;
    const decoder = new TextDecoder();
    const lines = new LineCollector(file.name, match, out, options.limit);
    file.ondata = (error, chunk, final) => {
      if (error) {
        failure = error;
        return;
      }
      expanded += chunk.byteLength;
      if (expanded > options.maxExpanded) {
        out.truncated = true;
        file.terminate();
        return;
      }
      lines.push(decoder.decode(chunk, { stream: !final }), final);
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    if (!failure) unzip.push(archive, true);
  } catch (error) {
    failure = error as Error;
  }
  if (failure) {
    throw new AhError({
      code: `${options.domain.toUpperCase()}_RESPONSE_INVALID`,
      message: 'the log archive is not a readable zip file',
      cause: (failure as Error).message,
      domain: options.domain,
      operation: options.operation,
    });
  }
  return out;
}

/** Searches one plain-text trace. */
export function searchText(text: string, file: string, match: (line: string) => boolean, limit: number): LogSearch {
  const out: LogSearch = { matches: [], match_count: 0, truncated: false };
  new LineCollector(file, match, out, limit).push(text, true);
  return out;
}
