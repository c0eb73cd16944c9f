/** `{{name}}` substitution in spec strings; an unknown name fails the case rather than sending a literal. */
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}/g;

export class UnknownVariable extends Error {
  constructor(readonly variable: string) {
    super(`unknown variable '${variable}'`);
  }
}

export function interpolate(text: string, vars: ReadonlyMap<string, string>): string {
  return text.replace(PLACEHOLDER, (_m, name: string) => {
    const value = vars.get(name);
    if (value === undefined) throw new UnknownVariable(name);
    return value;
  });
}

/** Every string inside a JSON value (keys stay as written). */
export function interpolateDeep(value: unknown, vars: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') return interpolate(value, vars);
  if (Array.isArray(value)) return value.map((v) => interpolateDeep(v, vars));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = interpolateDeep(v, vars);
    return out;
  }
  return value;
}
