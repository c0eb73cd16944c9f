/**
 * Runs an assert spec: cases in order, each a request through the shared transport, checked with
 * the shared expectations; extracted values are published to later cases only when the whole
 * case passed. Reports (text, JSON, JUnit) never hold an extracted or interpolated value: checks
 * run with `reveal: false`, and error texts are scrubbed of every extracted value.
 */
import type { CommandContext } from '../../../catalog/descriptor.js';
import { AhError } from '../../../errors.js';
import { evaluate, type Expectations, type JsonCheck } from './expect.js';
import { lookup } from './json-path.js';
import { interpolate, interpolateDeep, UnknownVariable } from './interpolate.js';
import { buildPlan, type OneOffInput } from './plan.js';
import { safeExec } from './safe-regex.js';
import type { Spec, SpecCaseT } from './spec-schema.js';
import { type HttpResponse, send } from './transport.js';

export interface CaseResult {
  name: string;
  passed: boolean;
  status: number | null;
  duration_ms: number;
  failures: string[];
}

export interface RunOptions {
  vars: readonly string[];
  failFast: boolean;
  retry: number;
  retryDelayMs: number;
}

type Extractor = NonNullable<SpecCaseT['extract']>[string];

const scalar = (v: string | number | boolean) => String(v);
const opt = (v: string | undefined, f: (t: string) => string) => (v === undefined ? undefined : f(v));

function joinUrl(base: string | undefined, path: string | undefined, url: string | undefined): string {
  if (url !== undefined) return url;
  const p = path ?? '';
  if (/^https?:\/\//i.test(p) || base === undefined) return p;
  if (p === '') return base;
  return `${base.replace(/\/+$/, '')}/${p.replace(/^\/+/, '')}`;
}

function buildInput(
  spec: Spec,
  c: SpecCaseT,
  vars: ReadonlyMap<string, string>,
  options: RunOptions,
): { method: string; input: OneOffInput } {
  const r = c.request;
  const s = (text: string) => interpolate(text, vars);
  const headers = { ...(spec.defaults?.headers ?? {}), ...(r.headers ?? {}) };
  const input: OneOffInput = {
    // Each part is interpolated before joining: a variable may hold a leading slash or a whole URL.
    url: joinUrl(opt(spec.defaults?.base_url, s), opt(r.path, s), opt(r.url, s)),
    headers: Object.entries(headers).map(([k, v]) => `${k}: ${s(scalar(v))}`),
    query: Object.entries(r.query ?? {}).map(([k, v]) => `${k}=${s(scalar(v))}`),
    timeout_secs: r.timeout_secs ?? spec.defaults?.timeout_secs ?? 30,
    max_response_bytes: r.max_response_bytes ?? spec.defaults?.max_response_bytes ?? 8_388_608,
    retry: options.retry,
    retry_delay_ms: options.retryDelayMs,
  };
  if (r.json !== undefined && r.body !== undefined)
    throw new AhError({ code: 'INVALID_ARGUMENT', message: 'a case request has both json and body' });
  if (r.json !== undefined) input.json = interpolateDeep(r.json, vars);
  if (r.body !== undefined) input.body = s(r.body);
  return { method: r.method ?? 'GET', input };
}

function expectations(c: SpecCaseT, vars: ReadonlyMap<string, string>): Expectations {
  const e = c.expect ?? {};
  const json: JsonCheck[] = (e.json ?? []).map((j) => {
    const path = interpolate(j.path, vars);
    if ('eq' in j) return { path, op: 'eq', value: interpolateDeep(j.eq, vars) };
    if ('contains' in j) return { path, op: 'contains', value: interpolateDeep(j.contains, vars) };
    if ('match' in j) return { path, op: 'match', value: interpolate(j.match, vars) };
    return { path, op: 'exists', value: j.exists ?? true };
  });
  return {
    status: e.status,
    headers: Object.entries(e.headers ?? {}).map(([k, v]) => [k, interpolate(scalar(v), vars)] as [string, string]),
    bodyContains: (e.body_contains ?? []).map((t) => interpolate(t, vars)),
    json,
  };
}

function extractOne(name: string, ex: Extractor, res: HttpResponse, deadline: number): string | { failure: string } {
  if ('header' in ex) {
    const value = res.headers[ex.header.toLowerCase()];
    return value ?? { failure: `extract '${name}': header '${ex.header}' missing` };
  }
  if (res.truncated) return { failure: `extract '${name}': body truncated at max_response_bytes` };
  if ('json' in ex) {
    let root: unknown;
    try {
      root = JSON.parse(res.body);
    } catch {
      return { failure: `extract '${name}': the body is not JSON` };
    }
    const { found, value } = lookup(root, ex.json);
    if (!found) return { failure: `extract '${name}': json '${ex.json}' missing` };
    return typeof value === 'string' ? value : JSON.stringify(value);
  }
  const group = ex.text.group ?? 1;
  const match = safeExec(ex.text.regex, res.body, deadline);
  if (match === null) return { failure: `extract '${name}': the pattern did not match` };
  const value = match[group];
  if (value === undefined || value === null) return { failure: `extract '${name}': group ${group} did not match` };
  return value;
}

function scrub(text: string, secrets: ReadonlySet<string>): string {
  let out = text;
  // Short values (a digit, a flag) would mangle every message; they carry little to leak.
  for (const secret of secrets) if (secret.length >= 4) out = out.replaceAll(secret, '[extracted]');
  return out;
}

export async function runSpec(spec: Spec, ctx: CommandContext, options: RunOptions): Promise<CaseResult[]> {
  const vars = new Map<string, string>(Object.entries(spec.vars ?? {}).map(([k, v]) => [k, scalar(v)]));
  for (const pair of options.vars) {
    const eq = pair.indexOf('=');
    vars.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  const extracted = new Set<string>();
  const results: CaseResult[] = [];
  for (const c of spec.cases) {
    if (ctx.signal.aborted) throw ctx.signal.reason;
    const started = performance.now();
    const failures: string[] = [];
    let status: number | null = null;
    const published = new Map<string, string>();
    try {
      const { method, input } = buildInput(spec, c, vars, options);
      const exp = expectations(c, vars);
      const plan = await buildPlan(method, input, ctx, {}, true);
      const response = await send(plan, ctx);
      status = response.status;
      failures.push(...evaluate(exp, response, { reveal: false, deadline: ctx.deadline }).failures);
      for (const [name, ex] of Object.entries(c.extract ?? {})) {
        const value = extractOne(name, ex, response, ctx.deadline);
        if (typeof value === 'string') published.set(name, value);
        else failures.push(value.failure);
      }
    } catch (error) {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      if (error instanceof UnknownVariable) failures.push(error.message);
      else if (error instanceof AhError) {
        const detail = error.detail !== error.message ? ` (${error.detail})` : '';
        failures.push(`${error.code}: ${error.message}${detail}`);
      } else throw error;
    }
    const passed = failures.length === 0;
    if (passed) {
      // Atomic per case: all of its extractions, or none.
      for (const [name, value] of published) {
        vars.set(name, value);
        extracted.add(value);
      }
    }
    // Paths and header names may be interpolated too: every failure text is scrubbed.
    const reported = failures.map((f) => scrub(f, extracted));
    results.push({ name: c.name, passed, status, duration_ms: Math.round(performance.now() - started), failures: reported });
    if (!passed && options.failFast) break;
  }
  return results;
}
