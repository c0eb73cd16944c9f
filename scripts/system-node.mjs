// The machine's own `node`. npm puts node_modules/.bin first on PATH for every script it runs, and
// the node@22 dev dependency (for the conformance suite only) has a `node` there, so inside
// `npm ci`, `npm run …` and `npm test` a bare `node` is that one, not the machine's.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** PATH without node_modules entries. */
export const systemPath = () =>
  (process.env.PATH ?? '')
    .split(':')
    .filter((p) => !p.includes('node_modules'))
    .join(':');

/** The first node on PATH outside node_modules; this process's node when there is none. */
export function systemNode() {
  if (!process.execPath.includes('/node_modules/')) return process.execPath;
  const found = systemPath()
    .split(':')
    .filter(Boolean)
    .map((p) => join(p, 'node'))
    .find((p) => existsSync(p));
  return found ?? process.execPath;
}
