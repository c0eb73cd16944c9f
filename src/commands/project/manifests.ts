/**
 * Reading manifests with real parsers: JSON, TOML (smol-toml), YAML (yaml), XML (fast-xml-parser).
 * The parsers are imported on first use so the catalog and other commands never load them. A file
 * that is too large, unreadable or malformed reads as null: detection degrades, never fails.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

const MAX_MANIFEST_BYTES = 1024 * 1024;

export type Json = Record<string, unknown>;

export class ManifestReader {
  private readonly texts = new Map<string, Promise<string | null>>();
  constructor(readonly root: string) {}

  text(rel: string): Promise<string | null> {
    let pending = this.texts.get(rel);
    if (pending === undefined) {
      pending = (async () => {
        const path = join(this.root, rel);
        try {
          const info = await stat(path);
          if (!info.isFile() || info.size > MAX_MANIFEST_BYTES) return null;
          return await readFile(path, 'utf8');
        } catch {
          return null;
        }
      })();
      this.texts.set(rel, pending);
    }
    return pending;
  }

  json(rel: string): Promise<Json | null> {
    return this.parsed(rel, (text) => JSON.parse(text));
  }

  toml(rel: string): Promise<Json | null> {
    return this.parsed(rel, async (text) => (await import('smol-toml')).parse(text));
  }

  yaml(rel: string): Promise<Json | null> {
    // No custom tags and a bounded alias expansion: a hostile file cannot blow up memory.
    return this.parsed(rel, async (text) => (await import('yaml')).parse(text, { maxAliasCount: 100, customTags: [] }));
  }

  xml(rel: string): Promise<Json | null> {
    return this.parsed(rel, async (text) => {
      const { XMLParser } = await import('fast-xml-parser');
      // Entities off: no expansion of DOCTYPE entities from an untrusted file.
      return new XMLParser({ ignoreAttributes: true, processEntities: false, parseTagValue: false, trimValues: true }).parse(text);
    });
  }

  /** The file parsed to an object, or null when it is missing, malformed or not an object. */
  private async parsed(rel: string, parse: (text: string) => unknown): Promise<Json | null> {
    const text = await this.text(rel);
    if (text === null) return null;
    try {
      const value = (await parse(text)) as unknown;
      return isObject(value) ? value : null;
    } catch {
      return null;
    }
  }
}

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A nested value by keys, or undefined. */
export function dig(value: unknown, ...keys: string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (!isObject(current)) return undefined;
    current = current[key];
  }
  return current;
}

export function str(value: unknown): string | null {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  if (typeof value === 'number') return String(value);
  return null;
}

/** Object keys as strings (dependency maps, script maps). */
export function keysOf(value: unknown): string[] {
  return isObject(value) ? Object.keys(value) : [];
}
