/** Finds which domain and command an argv names, lifting global options on the way. */
import { AhError } from '../../errors.js';
import { emptyGlobals, type Globals, takeGlobal } from './globals.js';
import { suggest } from '../../platform/suggest.js';

export type Route =
  | { kind: 'root'; globals: Globals }
  | { kind: 'domain'; domain: string; globals: Globals }
  | { kind: 'command'; id: string; tail: string[]; globals: Globals };

interface RouteTable {
  /** Every known domain (enabled or not) → its command ids (typed and CLI-only). */
  domains: ReadonlyMap<string, readonly string[]>;
}

/** The first word after the global options (the domain an argv names) and the index past it. */
function leadingWord(args: readonly string[], globals: Globals): { domain: string | undefined; i: number } {
  let i = 0;
  while (i < args.length) {
    const token = args[i] as string;
    if (token === '--') break;
    const used = takeGlobal(args, i, globals);
    if (used > 0) {
      i += used;
      continue;
    }
    if (token.startsWith('-')) {
      throw new AhError({
        code: 'INVALID_ARGUMENT',
        message: `unknown option '${token}'`,
        hint: "Run 'ah --help' to see the global options.",
      });
    }
    return { domain: token, i: i + 1 };
  }
  return { domain: undefined, i };
}

/**
 * The domain word of an argv, read before the catalog exists (to load only what the call needs);
 * undefined when there is none or the options are wrong (route reports that with the full catalog).
 */
export function domainWord(args: readonly string[]): string | undefined {
  try {
    return leadingWord(args, emptyGlobals()).domain;
  } catch {
    return undefined;
  }
}

export function route(args: readonly string[], table: RouteTable): Route {
  const globals = emptyGlobals();
  const { domain, i } = leadingWord(args, globals);
  if (domain === 'help') {
    // `ah help [domain [command…]]` is `ah … --help`.
    globals.help = true;
    const rest = args.slice(i).filter((t) => !t.startsWith('-'));
    if (rest.length === 0) return { kind: 'root', globals };
    return route([...rest, ...(globals.json ? ['--json'] : []), '--help'], table);
  }
  if (domain === undefined) return { kind: 'root', globals };
  const ids = table.domains.get(domain);
  if (!ids) {
    const guess = domain === 'version' ? undefined : suggest(domain, table.domains.keys());
    throw new AhError({
      code: 'DOMAIN_NOT_FOUND',
      message: `'${domain}' is not a command`,
      hint:
        domain === 'version'
          ? "Use 'ah --version' to print the version."
          : guess
            ? `Did you mean '${guess}'?`
            : "Run 'ah --help' to list the domains.",
      domain: 'plugins',
      operation: 'route',
    });
  }
  // Collect command words (globals may sit between them) while they still prefix a known id.
  const words: string[] = [];
  let matched: string | undefined;
  let matchedAt = i;
  let j = i;
  while (j < args.length) {
    const token = args[j] as string;
    if (token === '--') break;
    if (token.startsWith('-')) {
      const used = takeGlobal(args, j, globals);
      if (used === 0) break;
      j += used;
      continue;
    }
    const candidate = [domain, ...words, token].join('.');
    if (!ids.some((id) => id === candidate || id.startsWith(`${candidate}.`))) break;
    words.push(token);
    j += 1;
    if (ids.includes(candidate)) {
      matched = candidate;
      matchedAt = j;
    }
  }
  if (matched) return { kind: 'command', id: matched, tail: args.slice(matchedAt), globals };
  const next = args.slice(i).find((t) => !t.startsWith('-'));
  if (next === undefined || globals.help) return { kind: 'domain', domain, globals };
  const names = ids.map((id) => id.slice(domain.length + 1).replaceAll('.', ' '));
  const attempted = [...words, next].join(' ');
  const guess = suggest(attempted, names) ?? suggest(next, names);
  throw new AhError({
    code: 'COMMAND_NOT_FOUND',
    message: `'${attempted}' is not a command of 'ah ${domain}'`,
    hint: `${guess ? `Did you mean 'ah ${domain} ${guess}'? ` : ''}Run 'ah ${domain} --help' to list its commands.`,
    domain,
    operation: 'route',
  });
}
