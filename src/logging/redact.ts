/**
 * Redaction of sensitive values before anything reaches a log. A name is sensitive when one of its
 * tokens is a secret word (password, token, …), it is exactly `basic`, or two adjacent tokens form a
 * secret pair (api key, private key, …). Whole-token matching keeps `monkey` or `tokenizer` alone.
 */
export const REDACTED = '[REDACTED]';

const WORDS = new Set(['password', 'passwd', 'token', 'secret', 'authorization', 'cookie', 'credential', 'credentials', 'bearer']);
const PAIRS = new Set(['api key', 'access key', 'private key', 'client secret', 'access token', 'refresh token']);

/** Splits `x-API_KeyValue` into [x, api, key, value]: non-alphanumerics, case changes, acronyms. */
export function tokenize(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((t) => t !== '')
    .map((t) => t.toLowerCase());
}

// Names repeat from call to call (path, context, cwd …): the answer is kept, in a bounded map.
const NAME_CACHE_LIMIT = 1024;
const nameCache = new Map<string, boolean>();

export function isSensitiveName(name: string): boolean {
  const cached = nameCache.get(name);
  if (cached !== undefined) return cached;
  const sensitive = classifyName(name);
  if (nameCache.size >= NAME_CACHE_LIMIT) nameCache.clear();
  nameCache.set(name, sensitive);
  return sensitive;
}

function classifyName(name: string): boolean {
  const tokens = tokenize(name);
  if (tokens.length === 1 && tokens[0] === 'basic') return true;
  for (let i = 0; i < tokens.length; i += 1) {
    if (WORDS.has(tokens[i] as string)) return true;
    if (i + 1 < tokens.length && PAIRS.has(`${tokens[i]} ${tokens[i + 1]}`)) return true;
  }
  return false;
}

const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^/\s@]+)@/gi;
const QUERY_PARAM = /([?&])([^=&#\s]+)=([^&#\s]*)/g;
const HEADER_LINE = /^(\s*)([A-Za-z0-9_.-]+)(\s*[:=]\s*)(.+)$/;

const MAY_NEED_REDACTION = /[@=:]|bearer|basic/i;

/** Redacts secrets embedded in free text: URL userinfo, sensitive query values, `Name: value`. */
export function redactText(text: string): string {
  // Every rule below needs one of '@', '=', ':' or a bearer/basic scheme word; most strings have none.
  if (!MAY_NEED_REDACTION.test(text)) return text;
  let result = text.replace(URL_USERINFO, (_m, scheme: string) => `${scheme}${REDACTED}@`);
  result = result.replace(QUERY_PARAM, (m, sep: string, key: string) => (isSensitiveName(key) ? `${sep}${key}=${REDACTED}` : m));
  const header = HEADER_LINE.exec(result);
  if (header && isSensitiveName(header[2] as string)) return `${header[1]}${header[2]}${header[3]}${REDACTED}`;
  // `--password=x` or `token=x` inside a longer string.
  result = result.replace(/(--?)([A-Za-z0-9_-]+)=(\S+)/g, (m, dash: string, key: string) =>
    isSensitiveName(key) ? `${dash}${key}=${REDACTED}` : m,
  );
  result = result.replace(/\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]+/gi, (_m, scheme: string) => `${scheme} ${REDACTED}`);
  return redactCurl(result);
}

// A curl command line (http replay): `-u user:pass` / `--user=…`, and `-H 'Name: value'` headers.
const CURL_USER = /(^|\s)(-u|--user)(\s+|=)(?:'[^']*'|"[^"]*"|\S+)/g;
const CURL_HEADER_QUOTED = /(^|\s)(-H|--header)(\s+|=)(['"])([A-Za-z0-9_.-]+)(\s*:\s*)[^\n]*?\4/g;
const CURL_HEADER_BARE = /(^|\s)(-H|--header)(\s+|=)([A-Za-z0-9_.-]+)(:)[^\s'"]*/g;

function redactCurl(text: string): string {
  if (!text.includes('-')) return text;
  return text
    .replace(CURL_USER, (_m, lead: string, flag: string, sep: string) => `${lead}${flag}${sep}${REDACTED}`)
    .replace(CURL_HEADER_QUOTED, (m, lead: string, flag: string, sep: string, quote: string, name: string, colon: string) =>
      isSensitiveName(name) ? `${lead}${flag}${sep}${quote}${name}${colon}${REDACTED}${quote}` : m,
    )
    .replace(CURL_HEADER_BARE, (m, lead: string, flag: string, sep: string, name: string) =>
      isSensitiveName(name) ? `${lead}${flag}${sep}${name}:${REDACTED}` : m,
    );
}

/** Recursively redacts JSON values: sensitive keys lose their values; strings are scanned. */
export function redactValue(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) return value.map((v) => redactValue(v));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) out[key] = isSensitiveName(key) ? REDACTED : redactValue(inner);
    return out;
  }
  return value;
}

/** Redacts CLI argv: `--flag value` / `--flag=value` with a sensitive flag name, and embedded secrets. */
export function redactArgv(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    const flag = /^--?([A-Za-z0-9][A-Za-z0-9_-]*)(=(.*))?$/.exec(arg);
    if (flag && isSensitiveName(flag[1] as string)) {
      if (flag[2] !== undefined) {
        out.push(`${arg.slice(0, arg.indexOf('='))}=${REDACTED}`);
      } else {
        out.push(arg);
        // The next token is the value, even when it starts with '-'.
        if (i + 1 < argv.length) {
          out.push(REDACTED);
          i += 1;
        }
      }
      continue;
    }
    out.push(redactText(arg));
  }
  return out;
}
