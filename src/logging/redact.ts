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

const MAY_NEED_REDACTION = /[@=:]|bearer|basic|\s-p\S/i;

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
  result = redactCurl(result);
  // Other command-line forms (saved tasks): `--proxy-user=bob:pw`, `-U bob:pw`, `mysql -pSECRET`.
  result = result.replace(
    /(^|\s)(-U|--proxy-user)([\s=]+)([^\s:'"]+):(\S+)/g,
    (_m, lead: string, f: string, sep: string, user: string) => `${lead}${f}${sep}${user}:${REDACTED}`,
  );
  return result.replace(
    /(\b(?:mysql|mysqldump|mariadb|mysqladmin)\b[^|;&]*?\s)-p(?!\s|-)\S+/g,
    (_m, head: string) => `${head}-p${REDACTED}`,
  );
}

// A curl command line (http replay, tasks): `-u user:pass` / `--user=…`, and `-H 'Name: value'` headers.
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
    for (const [key, inner] of Object.entries(value)) {
      if (isSensitiveName(key)) out[key] = REDACTED;
      // A child's argv (run.check) is read as a command line, so `--user bob:pw` is caught.
      else if (key === 'argv' && Array.isArray(inner) && inner.every((v) => typeof v === 'string')) out[key] = redactArgv(inner);
      // A shell command line (task.save, task.run's task_command) is redacted word by word, like argv.
      else if ((key === 'command' || key === 'task_command') && typeof inner === 'string') out[key] = redactCommandLine(inner);
      else out[key] = redactValue(inner);
    }
    return out;
  }
  return value;
}

/**
 * A shell command line redacted like argv: split at whitespace (quotes kept with their word),
 * each simple command's words through redactArgv, plus `NAME=value` assignments whose name is
 * sensitive (`TOKEN=… cmd`, `export API_KEY=…`). The spacing and operators are kept.
 */
export function redactCommandLine(line: string): string {
  if (line.length > 100_000) return redactText(line);
  const parts = line.split(/(\s+|&&|\|\||[|;])/);
  let words: string[] = [];
  let seps: string[] = [];
  const out: string[] = [];
  const flush = () => {
    if (words.length === 0) return;
    const redacted = redactArgv(words.map((w) => w.replace(/^(['"])(.*)\1$/, '$2')));
    words.forEach((w, i) => {
      let r = redacted[i] as string;
      const assign = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(w);
      if (assign && isSensitiveName(assign[1] as string)) r = `${assign[1]}=${REDACTED}`;
      else if (r === w.replace(/^(['"])(.*)\1$/, '$2')) r = w;
      out.push(r, seps[i] ?? '');
    });
    words = [];
    seps = [];
  };
  for (let i = 0; i < parts.length; i += 2) {
    const word = parts[i] as string;
    const sep = parts[i + 1] ?? '';
    if (word !== '') {
      words.push(word);
      seps.push(sep);
    } else if (words.length > 0) seps[seps.length - 1] += sep;
    else out.push(sep);
    if (/[|;&]/.test(sep)) flush();
  }
  flush();
  return out.join('');
}

/**
 * Flags whose value carries a credential although their name does not say so, per program
 * (basename of argv[0], or the first token after `--`). `userPassword` flags take `user:password`
 * and keep the user; the others lose their whole value.
 */
interface ProgramFlags {
  userPassword?: readonly string[];
  secret?: readonly string[];
  /** Short flags whose attached value (`-pSECRET`) is a password; a detached `-p` prompts instead. */
  attached?: readonly string[];
}
const CURL: ProgramFlags = { userPassword: ['-u', '--user', '-U', '--proxy-user'], secret: ['--oauth2-bearer'] };
const MYSQL: ProgramFlags = { attached: ['-p'] };
const PROGRAM_FLAGS: Readonly<Record<string, ProgramFlags>> = {
  curl: CURL,
  wget: { userPassword: ['--user', '--http-user'] },
  http: { userPassword: ['-a', '--auth'] },
  https: { userPassword: ['-a', '--auth'] },
  mysql: MYSQL,
  mysqldump: MYSQL,
  mariadb: MYSQL,
  'mariadb-dump': MYSQL,
  mysqladmin: MYSQL,
  sshpass: { secret: ['-p'] },
  smbclient: { userPassword: ['-U', '--user'] },
};
// Any program: `--user NAME:PASSWORD` is a credential (a name alone is kept).
const ANY: ProgramFlags = { userPassword: ['--user', '--proxy-user'] };

function programOf(token: string): ProgramFlags {
  const base = token.slice(token.lastIndexOf('/') + 1).replace(/\.exe$/i, '');
  return PROGRAM_FLAGS[base] ?? ANY;
}

function maskUserPassword(value: string): string {
  const colon = value.indexOf(':');
  return colon === -1 ? value : `${value.slice(0, colon)}:${REDACTED}`;
}

/**
 * Redacts CLI argv: `--flag value` / `--flag=value` with a sensitive flag name, credential-bearing
 * flags of known programs (curl `-u`, mysql `-pSECRET`, …), and secrets embedded in any argument.
 */
export function redactArgv(argv: readonly string[]): string[] {
  const out: string[] = [];
  let program = argv.length > 0 ? programOf(argv[0] as string) : ANY;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (arg === '--' && i + 1 < argv.length) {
      out.push(arg);
      program = programOf(argv[i + 1] as string);
      continue;
    }
    const flag = /^(--?[A-Za-z0-9][A-Za-z0-9_-]*)(=(.*))?$/.exec(arg);
    const name = flag?.[1];
    const sensitive = name !== undefined && isSensitiveName(name.replace(/^-+/, ''));
    const secret = name !== undefined && (sensitive || program.secret?.includes(name) === true);
    const userPassword = name !== undefined && !secret && program.userPassword?.includes(name) === true;
    if (flag && name && (secret || userPassword)) {
      const mask = secret ? () => REDACTED : maskUserPassword;
      if (flag[2] !== undefined) {
        out.push(`${name}=${mask(flag[3] as string)}`);
      } else {
        out.push(arg);
        // The next token is the value, even when it starts with '-'.
        if (i + 1 < argv.length) {
          out.push(mask(argv[i + 1] as string));
          i += 1;
        }
      }
      continue;
    }
    const attached = program.attached?.find((f) => arg.length > f.length && arg.startsWith(f) && !arg.startsWith(`${f}-`));
    if (attached) {
      out.push(`${attached}${REDACTED}`);
      continue;
    }
    // curl's attached short form: `-ubob:pw`.
    const short = program.userPassword?.find((f) => f.length === 2 && arg.length > 2 && arg.startsWith(f) && arg[2] !== '-');
    if (short) {
      out.push(`${short}${maskUserPassword(arg.slice(2))}`);
      continue;
    }
    out.push(redactText(arg));
  }
  return out;
}
