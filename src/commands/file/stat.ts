import { lstatSync, type Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { defineCommand } from '../../catalog/descriptor.js';
import { mayLookUpSynchronously } from '../../platform/local-directories.js';
import { Nullable, RootObject, type Static, Type } from '../../catalog/schema.js';
import { fsError } from './load-text.js';
import { ENTRY_KIND, entryKind, PATH, READ_EFFECTS } from './shared.js';

const input = RootObject({ path: PATH });
const output = RootObject({
  command: Type.Literal('file.stat'),
  path: Type.String(),
  kind: ENTRY_KIND,
  size_bytes: Type.Integer({ minimum: 0 }),
  readonly: Type.Boolean(),
  modified_unix_seconds: Nullable(Type.Integer()),
  created_unix_seconds: Nullable(Type.Integer()),
});
type Output = Static<typeof output>;

export const stat = defineCommand({
  id: 'file.stat',
  title: 'File metadata',
  description: 'Report kind (file, directory, symlink, other), size, read-only flag and times of a path without following a final symlink.',
  inputSchema: input,
  outputSchema: output,
  effects: READ_EFFECTS,
  examples: [{ description: 'Metadata of a file', arguments: { path: 'package.json' } }],
  cli: { positionals: ['path'] },
  render: (o: Output) =>
    [
      `${o.path}: ${o.kind}, ${o.size_bytes} bytes${o.readonly ? ', read-only' : ''}`,
      `modified: ${o.modified_unix_seconds === null ? 'unknown' : new Date(o.modified_unix_seconds * 1000).toISOString()}`,
      `created:  ${o.created_unix_seconds === null ? 'unknown' : new Date(o.created_unix_seconds * 1000).toISOString()}`,
    ].join('\n'),
  async run(args: Static<typeof input>, ctx): Promise<Output> {
    const absolute = isAbsolute(args.path) ? args.path : resolve(ctx.cwd, args.path);
    let info: Stats;
    try {
      // On the calling thread where the directory is known to be local: the thread pool's round
      // trip cost more than the lstat itself (see platform/local-directories.ts).
      info = mayLookUpSynchronously(absolute) ? lstatSync(absolute) : await lstat(absolute);
    } catch (error) {
      throw fsError(error, args.path, 'FILE_METADATA_FAILED');
    }
    const seconds = (ms: number) => (Number.isFinite(ms) && ms > 0 ? Math.floor(ms / 1000) : null);
    return {
      command: 'file.stat',
      path: args.path,
      kind: entryKind(info),
      size_bytes: info.size,
      // Owner write bit: what `ls -l` shows; root's ability to write anyway is not "read-only".
      readonly: (info.mode & 0o200) === 0,
      modified_unix_seconds: seconds(info.mtimeMs),
      created_unix_seconds: seconds(info.birthtimeMs),
    };
  },
});
