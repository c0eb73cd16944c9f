/**
 * The curl subset `http replay` understands: -X/--request, -H/--header, -d/--data/--data-raw/
 * --data-binary (POST unless a method or --get says otherwise), --json, -u/--user, -m/--max-time,
 * --url, -I/--head, -G/--get and bare URLs; `--opt=value` and attached short values (`-XPOST`)
 * work too. Anything else is refused rather than silently ignored (`-k` above all).
 */
import { AhError } from '../../../errors.js';

export interface CurlRequest {
  method: string | undefined;
  url: string;
  headers: string[];
  /** Raw body text (from -d/--data*, joined with '&' as curl does). */
  data: string | undefined;
  /** --json pieces, concatenated. */
  json: string | undefined;
  user: string | undefined;
  maxTimeSecs: number | undefined;
  head: boolean;
  get: boolean;
}

function unsupported(option: string): AhError {
  return new AhError({
    code: 'INVALID_ARGUMENT',
    message: 'unsupported curl option in replay',
    cause: `option '${option}'`,
    hint: 'Supported: -X/--request, -H/--header, -d/--data/--data-raw/--data-binary, --json, -u/--user, -m/--max-time, --url, -I/--head, -G/--get and the URL.',
    domain: 'http',
    operation: 'http.replay',
  });
}

function bad(message: string): AhError {
  return new AhError({ code: 'INVALID_ARGUMENT', message, domain: 'http', operation: 'http.replay' });
}

/** POSIX-shell-like word splitting: quotes, backslash escapes, line continuations. Never evaluates anything. */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  while (i < command.length) {
    const c = command[i] as string;
    if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end === -1) throw bad('unterminated single quote in the curl command');
      word += command.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      i += 1;
      for (;;) {
        if (i >= command.length) throw bad('unterminated double quote in the curl command');
        const d = command[i] as string;
        if (d === '"') break;
        if (d === '\\' && i + 1 < command.length && '"\\$`\n'.includes(command[i + 1] as string)) {
          if (command[i + 1] !== '\n') word += command[i + 1];
          i += 2;
          continue;
        }
        if (d === '$' || d === '`') throw bad('the curl command uses shell expansion ($ or `), which replay does not run');
        word += d;
        i += 1;
      }
      inWord = true;
      i += 1;
    } else if (c === '\\') {
      if (command[i + 1] === '\n') i += 2;
      else {
        if (i + 1 < command.length) word += command[i + 1];
        inWord = true;
        i += 2;
      }
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i += 1;
    } else if (c === '$' || c === '`' || c === '|' || c === ';' || c === '&' || c === '<' || c === '>') {
      throw bad(`the curl command uses the shell character '${c}', which replay does not interpret`);
    } else {
      word += c;
      inWord = true;
      i += 1;
    }
  }
  if (inWord) words.push(word);
  return words;
}

const WITH_VALUE: Readonly<Record<string, string>> = {
  '-X': 'request',
  '--request': 'request',
  '-H': 'header',
  '--header': 'header',
  '-d': 'data',
  '--data': 'data',
  '--data-raw': 'data-raw',
  '--data-binary': 'data',
  '--json': 'json',
  '-u': 'user',
  '--user': 'user',
  '-m': 'max-time',
  '--max-time': 'max-time',
  '--url': 'url',
};
const SWITCHES: Readonly<Record<string, string>> = { '-I': 'head', '--head': 'head', '-G': 'get', '--get': 'get' };

export function parseCurl(command: string): CurlRequest {
  const words = shellWords(command);
  if (words[0] === 'curl') words.shift();
  const out: CurlRequest = {
    method: undefined,
    url: '',
    headers: [],
    data: undefined,
    json: undefined,
    user: undefined,
    maxTimeSecs: undefined,
    head: false,
    get: false,
  };
  const urls: string[] = [];
  const data: string[] = [];
  const json: string[] = [];
  let i = 0;
  while (i < words.length) {
    const word = words[i] as string;
    i += 1;
    if (!word.startsWith('-') || word === '-') {
      urls.push(word);
      continue;
    }
    let name = word;
    let value: string | undefined;
    if (word.startsWith('--') && word.includes('=')) {
      name = word.slice(0, word.indexOf('='));
      value = word.slice(word.indexOf('=') + 1);
    } else if (!word.startsWith('--') && word.length > 2 && WITH_VALUE[word.slice(0, 2)] !== undefined) {
      name = word.slice(0, 2);
      value = word.slice(2);
    }
    const switchName = SWITCHES[name];
    if (switchName !== undefined && value === undefined) {
      if (switchName === 'head') out.head = true;
      else out.get = true;
      continue;
    }
    const kind = WITH_VALUE[name];
    if (kind === undefined) throw unsupported(name);
    if (value === undefined) {
      value = words[i];
      i += 1;
      if (value === undefined) throw bad(`curl option '${name}' needs a value`);
    }
    switch (kind) {
      case 'request':
        out.method = value.toUpperCase();
        break;
      case 'header':
        out.headers.push(value);
        break;
      case 'data':
        // curl reads a file for '@name'; replay reads nothing the command names.
        if (value.startsWith('@')) throw unsupported(`${name} @file`);
        data.push(value);
        break;
      case 'data-raw':
        data.push(value);
        break;
      case 'json':
        if (value.startsWith('@')) throw unsupported(`${name} @file`);
        json.push(value);
        break;
      case 'user':
        out.user = value;
        break;
      case 'max-time': {
        const secs = Number(value);
        if (!Number.isFinite(secs) || secs <= 0) throw bad(`curl ${name} needs a positive number of seconds`);
        out.maxTimeSecs = secs;
        break;
      }
      case 'url':
        urls.push(value);
        break;
    }
  }
  if (urls.length === 0) throw bad('the curl command names no URL');
  if (urls.length > 1) throw bad('the curl command names more than one URL; replay sends one request');
  out.url = urls[0] as string;
  if (data.length > 0) out.data = data.join('&');
  if (json.length > 0) out.json = json.join('');
  if (out.data !== undefined && out.json !== undefined) throw bad('the curl command mixes --data and --json');
  return out;
}
