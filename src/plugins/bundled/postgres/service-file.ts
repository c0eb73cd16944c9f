/**
 * libpq connection service files: INI-style sections of key=value lines (`#` comments). The
 * per-user file is PGSERVICEFILE, else ~/.pg_service.conf; the system file is
 * PGSYSCONFDIR/pg_service.conf. A service found in the user file is not looked up further.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AhError } from '../../../errors.js';

export type ServiceValues = Readonly<Record<string, string>>;

/** The key=value pairs of one section, or null when the text has no such section. */
export function parseServiceSection(text: string, service: string): ServiceValues | null {
  let inSection = false;
  let found = false;
  const values: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('[')) {
      const end = line.indexOf(']');
      inSection = end > 0 && line.slice(1, end).trim() === service;
      if (inSection) found = true;
      continue;
    }
    if (!inSection) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    const key = line.slice(0, eq).trim();
    // The first value of a key in a section wins, as in libpq.
    if (!(key in values)) values[key] = line.slice(eq + 1).trim();
  }
  return found ? values : null;
}

async function readOptional(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
}

/** Looks a service up in the user's and the system's service files. */
export async function loadService(
  service: string,
  env: Readonly<Record<string, string | undefined>>,
  home: string | null,
): Promise<ServiceValues> {
  const candidates: string[] = [];
  if (env.PGSERVICEFILE) candidates.push(env.PGSERVICEFILE);
  else if (home) candidates.push(join(home, '.pg_service.conf'));
  if (env.PGSYSCONFDIR) candidates.push(join(env.PGSYSCONFDIR, 'pg_service.conf'));
  for (const path of candidates) {
    const text = await readOptional(path);
    if (text === null) continue;
    const values = parseServiceSection(text, service);
    if (values) return values;
  }
  throw new AhError({
    code: 'POSTGRES_SERVICE_NOT_FOUND',
    message: `service '${service}' is not defined in a service file`,
    cause: candidates.length === 0 ? 'no service file to search (HOME and PGSERVICEFILE are unset)' : `searched ${candidates.join(', ')}`,
    hint: 'Define it as a [section] in ~/.pg_service.conf (or the file PGSERVICEFILE names), or pass host, port, database and user.',
  });
}
