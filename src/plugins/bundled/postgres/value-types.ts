/**
 * How PostgreSQL values become JSON (every value arrives in the text format):
 * - NULL → null; boolean → true/false; smallint, integer, oid, real, double precision → numbers
 *   (NaN and ±Infinity, which JSON cannot hold, stay strings);
 * - bigint and numeric → strings (exact: JSON numbers lose digits past 2^53);
 * - json and jsonb → the parsed JSON value;
 * - bytea → base64 of the bytes;
 * - timestamp with time zone → ISO 8601 with the session's offset ("2024-05-01T12:30:00.123456+00:00"),
 *   timestamp → ISO 8601 without an offset, date → "YYYY-MM-DD" (infinity and BC values as PostgreSQL
 *   prints them); interval → ISO 8601 duration (the session uses IntervalStyle iso_8601);
 * - arrays of any of these → JSON arrays (nested for multi-dimensional arrays), elements mapped alike;
 * - every other type (text, uuid, time, money, inet, geometric types, enums, …) → PostgreSQL's text.
 */
import { parse as parseArray } from 'postgres-array';

type Parser = (text: string) => unknown;

const identity: Parser = (text) => text;

function toNumber(text: string): unknown {
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
}

function toBoolean(text: string): unknown {
  return text === 't' || text === 'true';
}

function toJson(text: string): unknown {
  return JSON.parse(text);
}

/** bytea in the hex output format (`\x0102…`), or the legacy escape format. */
function toBase64(text: string): string {
  if (text.startsWith('\\x')) return Buffer.from(text.slice(2), 'hex').toString('base64');
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i += 1) {
    if (text[i] === '\\') {
      if (text[i + 1] === '\\') {
        bytes.push(0x5c);
        i += 1;
      } else {
        bytes.push(Number.parseInt(text.slice(i + 1, i + 4), 8));
        i += 3;
      }
    } else {
      bytes.push(text.charCodeAt(i));
    }
  }
  return Buffer.from(bytes).toString('base64');
}

const DIGIT_0 = 48;
const DIGIT_9 = 57;

function digitsAt(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i += 1) {
    const c = text.charCodeAt(i);
    if (c < DIGIT_0 || c > DIGIT_9) return false;
  }
  return true;
}

/**
 * The shape PostgreSQL prints for nearly every timestamptz in a session whose offset is whole
 * hours ("2024-05-01 12:30:00[.ffffff]+02"), checked by character instead of by the regular
 * expression: a big result has one per row, and the match array and its substrings were garbage.
 */
function hourOffsetTimestamp(text: string): string | null {
  const n = text.length;
  if (n < 22 || text.charCodeAt(10) !== 32) return null;
  const sign = text.charCodeAt(n - 3);
  if (sign !== 43 && sign !== 45) return null;
  if (text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return null;
  if (!digitsAt(text, 0, 4) || !digitsAt(text, 5, 7) || !digitsAt(text, 8, 10) || !digitsAt(text, 11, 13)) return null;
  if (!digitsAt(text, 14, 16) || !digitsAt(text, 17, 19) || !digitsAt(text, n - 2, n)) return null;
  // Fractional seconds: nothing, or "." and at least one digit.
  if (n > 22 && (n === 23 || text.charCodeAt(19) !== 46 || !digitsAt(text, 20, n - 3))) return null;
  return `${text.slice(0, 10)}T${text.slice(11)}:00`;
}

/** "2024-05-01 12:30:00.123+02" → "2024-05-01T12:30:00.123+02:00"; other shapes pass through. */
export function isoTimestamp(text: string): string {
  const fast = hourOffsetTimestamp(text);
  if (fast !== null) return fast;
  const m = /^(\d{4,}-\d\d-\d\d) (\d\d:\d\d:\d\d(?:\.\d+)?)(?:([+-]\d\d)(?::?(\d\d))?(?::(\d\d))?)?$/.exec(text);
  if (!m) return text;
  const [, date, time, hours, minutes, seconds] = m;
  if (hours === undefined) return `${date}T${time}`;
  return `${date}T${time}${hours}:${minutes ?? '00'}${seconds ? `:${seconds}` : ''}`;
}

const SCALARS: ReadonlyMap<number, Parser> = new Map<number, Parser>([
  [16, toBoolean],
  [17, toBase64],
  [20, identity],
  [21, toNumber],
  [23, toNumber],
  [26, toNumber],
  [114, toJson],
  [700, toNumber],
  [701, toNumber],
  [1082, identity],
  [1114, isoTimestamp],
  [1184, isoTimestamp],
  [1700, identity],
  [3802, toJson],
]);

/** Array type oid → element type oid (for the element types mapped above, and text-like ones). */
const ARRAYS: ReadonlyMap<number, number> = new Map([
  [1000, 16],
  [1001, 17],
  [1016, 20],
  [1005, 21],
  [1007, 23],
  [1028, 26],
  [199, 114],
  [1021, 700],
  [1022, 701],
  [1182, 1082],
  [1115, 1114],
  [1185, 1184],
  [1231, 1700],
  [3807, 3802],
]);

const arrayParsers = new Map<number, Parser>();
for (const [arrayOid, elementOid] of ARRAYS) {
  const element = SCALARS.get(elementOid) as Parser;
  arrayParsers.set(arrayOid, (text) => parseArray(text, element));
}

/** Known array types of text-like elements (text[], varchar[], uuid[], name[], …) parse to string arrays. */
const TEXT_ARRAYS = new Set([1009, 1015, 2951, 1003, 1014, 1041, 1183, 1270, 1187]);
for (const oid of TEXT_ARRAYS) arrayParsers.set(oid, (text) => parseArray(text));

/** The `types` object node-postgres takes: one parser per type oid, text for unknown types. */
export const VALUE_TYPES = {
  getTypeParser(oid: number, format?: string): Parser {
    if (format === 'binary') return identity;
    return SCALARS.get(oid) ?? arrayParsers.get(oid) ?? identity;
  },
};

/** Display names of common type oids (the rest are reported by oid). */
const TYPE_NAMES: ReadonlyMap<number, string> = new Map([
  [16, 'boolean'],
  [17, 'bytea'],
  [18, 'char'],
  [19, 'name'],
  [20, 'bigint'],
  [21, 'smallint'],
  [23, 'integer'],
  [25, 'text'],
  [26, 'oid'],
  [114, 'json'],
  [700, 'real'],
  [701, 'double precision'],
  [1042, 'character'],
  [1043, 'character varying'],
  [1082, 'date'],
  [1083, 'time'],
  [1114, 'timestamp'],
  [1184, 'timestamptz'],
  [1186, 'interval'],
  [1266, 'timetz'],
  [1700, 'numeric'],
  [2950, 'uuid'],
  [3802, 'jsonb'],
  [869, 'inet'],
  [1009, 'text[]'],
  [1007, 'integer[]'],
  [1016, 'bigint[]'],
  [3807, 'jsonb[]'],
]);

export function typeName(oid: number): string {
  return TYPE_NAMES.get(oid) ?? `oid ${oid}`;
}
