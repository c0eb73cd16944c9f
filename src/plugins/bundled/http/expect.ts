/**
 * Response expectations shared by one-off requests and assert specs: status (code, class, range),
 * headers, body texts and JSON checks (eq, contains, exists, match). Evaluated on the final
 * response only. With `reveal: false` (spec runs) failure texts name the check but never quote a
 * value, so extracted or interpolated values cannot reach a report.
 */
import { AhError } from '../../../errors.js';
import { deepEqual, lookup } from './json-path.js';
import { safeExec } from './safe-regex.js';

export type JsonOp = 'eq' | 'contains' | 'exists' | 'match';
export interface JsonCheck {
  path: string;
  op: JsonOp;
  /** eq/contains: the expected JSON value; exists: boolean; match: the regex source. */
  value: unknown;
}

export interface Expectations {
  status?: number | string | undefined;
  headers?: readonly [string, string][] | undefined;
  bodyContains?: readonly string[] | undefined;
  json?: readonly JsonCheck[] | undefined;
}

export interface Observed {
  status: number;
  headers: Readonly<Record<string, string>>;
  body: string;
  truncated: boolean;
}

export interface Verdict {
  total: number;
  passed: number;
  failed: number;
  failures: string[];
}

/** Response headers whose values are secrets: never quoted in a failure. */
const SECRET_HEADERS = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|x-auth-token|.*token.*|.*secret.*)$/i;

export function statusMatches(expected: number | string, status: number): boolean {
  if (typeof expected === 'number') return status === expected;
  if (/^[1-5]xx$/.test(expected)) return Math.floor(status / 100) === Number(expected[0]);
  const range = /^(\d{3})-(\d{3})$/.exec(expected);
  if (range) return status >= Number(range[1]) && status <= Number(range[2]);
  return status === Number(expected);
}

/** 'path:op[:value]' from the CLI or MCP one-off form. */
export function parseJsonCheck(raw: string): JsonCheck {
  const first = raw.indexOf(':');
  const path = raw.slice(0, first);
  const rest = raw.slice(first + 1);
  const second = rest.indexOf(':');
  const op = (second === -1 ? rest : rest.slice(0, second)) as JsonOp;
  const text = second === -1 ? undefined : rest.slice(second + 1);
  if (op === 'exists') {
    if (text !== undefined && text !== 'true' && text !== 'false') {
      throw new AhError({ code: 'INVALID_ARGUMENT', message: `expect_json '${path}:exists' takes true or false`, domain: 'http' });
    }
    return { path, op, value: text !== 'false' };
  }
  if (text === undefined)
    throw new AhError({
      code: 'INVALID_ARGUMENT',
      message: `expect_json '${path}:${op}' needs a value`,
      hint: `Write ${path}:${op}:VALUE.`,
      domain: 'http',
    });
  if (op === 'match') return { path, op, value: text };
  let value: unknown = text;
  try {
    value = JSON.parse(text);
  } catch {
    // Not JSON: the text itself is the expected string.
  }
  return { path, op, value };
}

const show = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
};

/** A CLI value like `42` matches the number 42 and the string "42". */
function equalLoose(actual: unknown, expected: unknown): boolean {
  if (deepEqual(actual, expected)) return true;
  if (typeof actual === 'string' && (typeof expected === 'number' || typeof expected === 'boolean' || expected === null))
    return actual === String(expected);
  return false;
}

function jsonCheck(check: JsonCheck, root: unknown, reveal: boolean, deadline: number): string | null {
  const { found, value } = lookup(root, check.path);
  const name = `json '${check.path}'`;
  switch (check.op) {
    case 'exists':
      if (found === check.value) return null;
      return check.value ? `${name}: missing` : `${name}: present but expected absent`;
    case 'eq':
      if (!found) return `${name}: missing`;
      if (equalLoose(value, check.value)) return null;
      return reveal ? `${name}: expected ${show(check.value)}, got ${show(value)}` : `${name}: not equal to the expected value`;
    case 'contains': {
      if (!found) return `${name}: missing`;
      let ok = false;
      if (typeof value === 'string') ok = value.includes(typeof check.value === 'string' ? check.value : show(check.value));
      else if (Array.isArray(value)) ok = value.some((item) => equalLoose(item, check.value));
      else if (value !== null && typeof value === 'object') ok = typeof check.value === 'string' && Object.hasOwn(value, check.value);
      if (ok) return null;
      return reveal ? `${name}: ${show(value)} does not contain ${show(check.value)}` : `${name}: does not contain the expected value`;
    }
    case 'match': {
      if (!found) return `${name}: missing`;
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
        return `${name}: is not a string, number or boolean`;
      if (safeExec(String(check.value), String(value), deadline) !== null) return null;
      return reveal ? `${name}: ${show(value)} does not match /${String(check.value)}/` : `${name}: does not match the pattern`;
    }
  }
}

export function countChecks(exp: Expectations): number {
  return (exp.status !== undefined ? 1 : 0) + (exp.headers?.length ?? 0) + (exp.bodyContains?.length ?? 0) + (exp.json?.length ?? 0);
}

export function evaluate(exp: Expectations, res: Observed, options: { reveal: boolean; deadline: number }): Verdict {
  const failures: string[] = [];
  const { reveal } = options;
  if (exp.status !== undefined && !statusMatches(exp.status, res.status))
    failures.push(`status: expected ${exp.status}, got ${res.status}`);
  for (const [name, expected] of exp.headers ?? []) {
    const actual = res.headers[name.toLowerCase()];
    if (actual === undefined) failures.push(`header '${name}': missing`);
    else if (actual !== expected) {
      failures.push(
        reveal && !SECRET_HEADERS.test(name)
          ? `header '${name}': expected ${show(expected)}, got ${show(actual)}`
          : `header '${name}': value differs`,
      );
    }
  }
  const bodyChecks = (exp.bodyContains?.length ?? 0) + (exp.json?.length ?? 0);
  if (bodyChecks > 0 && res.truncated) {
    // A cut body cannot prove or disprove a body check.
    for (let i = 0; i < bodyChecks; i += 1) failures.push('body: truncated at max_response_bytes, body checks need the whole body');
  } else {
    for (const text of exp.bodyContains ?? []) {
      if (!res.body.includes(text))
        failures.push(reveal ? `body: does not contain ${show(text)}` : 'body: does not contain an expected text');
    }
    if ((exp.json?.length ?? 0) > 0) {
      let root: unknown;
      let parsed = true;
      try {
        root = JSON.parse(res.body);
      } catch {
        parsed = false;
      }
      for (const check of exp.json ?? []) {
        const failure = parsed ? jsonCheck(check, root, reveal, options.deadline) : `json '${check.path}': the body is not JSON`;
        if (failure !== null) failures.push(failure);
      }
    }
  }
  const total = countChecks(exp);
  return { total, passed: total - failures.length, failed: failures.length, failures };
}
