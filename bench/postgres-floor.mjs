// The floor for postgres.query: a bare Node process that, per request line on stdin, opens a
// connection with `pg`, runs the query, closes it and writes the rows as one JSON line. The same
// work ah does per call (one connection per call, rows as JSON) without the MCP server around it.
import { createInterface } from 'node:readline';
import pg from 'pg';

const config = JSON.parse(process.argv[2]);
const lines = createInterface({ input: process.stdin });
for await (const sql of lines) {
  const client = new pg.Client(config);
  await client.connect();
  const result = await client.query(sql);
  await client.end();
  process.stdout.write(`${JSON.stringify(result.rows)}\n`);
}
