// Property-based fuzzing of the real server over stdio and HTTP: JSON-RPC framing (valid,
// malformed, unparsable) and every tool's arguments generated from its published input schema
// (valid and invalid). Properties: no crash, every request with a readable id answered, stdout
// carries only JSON-RPC, arguments that break the schema are refused, RSS stays bounded.
// Case count per transport: AH_FUZZ_CASES (default 2500; `bench/fuzz.mjs` runs 10,000+).
import fc, { type Arbitrary } from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/cli.js';
import { HttpFuzzPeer, type Message, messagesOf, rssKiB, StdioFuzzPeer } from '../helpers/fuzz-peers.js';
import { invalidObjectArb, type Schema, validArb } from '../helpers/schema-arbitrary.js';
import { suiteTempDir } from '../helpers/tmp.js';

const CASES = Math.max(50, Number(process.env.AH_FUZZ_CASES ?? '2500') || 2500);
const SEED = process.env.AH_FUZZ_SEED === undefined ? undefined : Number(process.env.AH_FUZZ_SEED);
/** Framing cases and tool-argument cases share the per-transport budget. */
const FRAMING_CASES = Math.round(CASES * 0.4);
const TOOL_CASES = CASES - FRAMING_CASES;
/** Cases per property run (sent together, answered in any order); runs = cases / BATCH. */
const BATCH = 10;
const REPLY_MS = 15_000;
const RSS_LIMIT_KIB = 512 * 1024;
const TEST_TIMEOUT = 120_000 + CASES * 60;

interface Tool {
  name: string;
  inputSchema: Schema;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; openWorldHint?: boolean };
}

/** A tool that only reads may run with valid random arguments; anything else is only fed refusals. */
function runsSafely(tool: Tool): boolean {
  const a = tool.annotations ?? {};
  return a.readOnlyHint === true && a.destructiveHint === false && a.openWorldHint === false && !tool.name.startsWith('ah.job.');
}

// ---- JSON-RPC framing --------------------------------------------------------------------

type Framed = { line: (id: string | number) => string; answered: boolean };

/** A framed case that prints as its line (with an id placeholder) in a counterexample. */
function framed(line: (id: string | number) => string, answered: boolean): Framed {
  return { line, answered, [fc.toStringMethod]: () => `${answered ? 'answered' : 'unanswered'}: ${line('<id>')}` } as Framed;
}

const METHODS = ['ping', 'tools/list', 'tools/call', 'resources/list', 'prompts/list', 'logging/setLevel', 'no/such/method', 'initialize'];
const jsonParams = fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });

const framingArb: Arbitrary<Framed> = fc.oneof(
  // Well-formed requests, random methods and params.
  fc
    .record({ method: fc.constantFrom(...METHODS), params: fc.option(jsonParams, { nil: undefined }) })
    .map(({ method, params }) => framed((id) => JSON.stringify({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) }), true)),
  // Malformed requests with a readable id: extra member, wrong jsonrpc, non-object params, bad _meta, bad method.
  fc
    .record({
      method: fc.constantFrom(...METHODS),
      fault: fc.oneof(
        fc.record({
          kind: fc.constant('extra' as const),
          key: fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !['jsonrpc', 'id', 'method', 'params'].includes(k)),
          value: fc.jsonValue({ maxDepth: 1 }),
        }),
        fc.record({
          kind: fc.constant('jsonrpc' as const),
          value: fc.oneof(fc.constant('1.0'), fc.constant(2), fc.constant(null), fc.string({ maxLength: 4 })),
        }),
        fc.record({
          kind: fc.constant('params' as const),
          value: fc.oneof(fc.array(fc.integer(), { maxLength: 3 }), fc.string({ maxLength: 5 }), fc.integer(), fc.constant(true)),
        }),
        fc.record({
          kind: fc.constant('meta' as const),
          value: fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.array(fc.integer(), { maxLength: 2 }), fc.constant(null)),
        }),
        fc.record({
          kind: fc.constant('method' as const),
          value: fc.oneof(fc.integer(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 })),
        }),
      ),
    })
    .map(({ method, fault }) =>
      framed((id) => {
        const message: Record<string, unknown> = { jsonrpc: '2.0', id, method };
        if (fault.kind === 'extra') message[fault.key] = fault.value;
        else if (fault.kind === 'jsonrpc') {
          if (fault.value === '2.0') message.jsonrpc = '2.0 ';
          else message.jsonrpc = fault.value;
        } else if (fault.kind === 'params') message.params = fault.value;
        else if (fault.kind === 'meta') message.params = { _meta: fault.value };
        else message.method = fault.value;
        return JSON.stringify(message);
      }, true),
    ),
  // Notifications (no id): never answered.
  fc
    .record({
      method: fc.constantFrom('notifications/cancelled', 'notifications/progress', 'notifications/x'),
      params: fc.option(jsonParams, { nil: undefined }),
    })
    .map(({ method, params }) => framed(() => JSON.stringify({ jsonrpc: '2.0', method, ...(params ? { params } : {}) }), false)),
  // Lines that are not one JSON-RPC object at all: text, truncated JSON, scalars, batches.
  fc
    .oneof(
      fc.string({ maxLength: 40 }).filter((s) => !s.includes('\n')),
      fc.string({ unit: 'binary', maxLength: 40 }).filter((s) => !s.includes('\n') && !s.includes('\r')),
      fc
        .jsonValue({ maxDepth: 2 })
        .map((v) => JSON.stringify(v))
        .filter((s) => !s.startsWith('{')),
      fc.constantFrom('{', '{"jsonrpc":"2.0","id":', '[]', '[{"jsonrpc":"2.0","id":1,"method":"ping"}]', 'null', '""'),
    )
    .map((text) => framed(() => text, false)),
);

// ---- tool arguments ------------------------------------------------------------------------

type ToolCase = { tool: string; args: unknown; mustFail: boolean };

function toolCaseArb(tools: readonly Tool[], cwd: string): Arbitrary<ToolCase> {
  const context = { cwd, limit: 20, timeout_ms: 3000 };
  const perTool = tools.map((tool) => {
    const invalid = invalidObjectArb(tool.inputSchema).map((args) => ({ tool: tool.name, args, mustFail: true }));
    if (!runsSafely(tool)) return invalid;
    const valid = validArb(tool.inputSchema).map((args) => ({
      tool: tool.name,
      args: { ...(args as Record<string, unknown>), context },
      mustFail: false,
    }));
    // Arbitrary JSON too: whatever it is, the server must answer.
    const anything = fc.jsonValue({ maxDepth: 2 }).map((args) => ({ tool: tool.name, args, mustFail: false }));
    return fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: invalid, weight: 2 }, { arbitrary: anything, weight: 1 });
  });
  return fc.oneof(...perTool);
}

/** Calls with generated valid arguments that succeeded: the generator must reach the handlers. */
const succeeded = { stdio: 0, http: 0 };

/** The HTTP transport's request body cap (1 MiB): a bigger POST is refused before it is parsed. */
const HTTP_BODY_CAP = 1024 * 1024;
/** Stands for "refused by the body cap" where a reply is expected (only arguments that break a maxLength get there). */
const OVER_CAP: Message = { jsonrpc: '2.0', error: { code: 413, message: 'REQUEST_TOO_LARGE' } };

/** An answer to a tools/call: a result (success or tool error) or a JSON-RPC error. */
function checkToolReply(c: ToolCase, reply: Message | undefined, transport: 'stdio' | 'http'): void {
  expect(reply, `no reply to ${c.tool} ${JSON.stringify(c.args).slice(0, 300)}`).toBeDefined();
  if (reply === OVER_CAP) {
    expect(c.mustFail, `valid arguments over the body cap: ${c.tool}`).toBe(true);
    return;
  }
  const result = reply?.result as { isError?: boolean } | undefined;
  if (c.mustFail) {
    const refused = result?.isError === true || reply?.error !== undefined;
    expect(refused, `invalid arguments accepted by ${c.tool}: ${JSON.stringify(c.args).slice(0, 300)}`).toBe(true);
  } else expect(result !== undefined || reply?.error !== undefined).toBe(true);
  if (result !== undefined && result.isError !== true) succeeded[transport] += 1;
}

function callLine(id: string | number, c: ToolCase): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: c.tool, arguments: c.args } });
}

const runs = (cases: number) => ({
  numRuns: Math.max(1, Math.ceil(cases / BATCH)),
  ...(SEED === undefined ? {} : { seed: SEED }),
  endOnFailure: true,
});

// ---- stdio -----------------------------------------------------------------------------

describe(`fuzz over stdio (${CASES} cases)`, () => {
  let peer: StdioFuzzPeer;
  let tools: Tool[] = [];
  let cwd = '';
  let next = 0;
  const nextId = () => {
    next += 1;
    return next % 3 === 0 ? `s-${next}` : next;
  };

  beforeAll(async () => {
    cwd = suiteTempDir('ah-fuzz-stdio-');
    peer = new StdioFuzzPeer({ cwd, env: isolatedEnv({}, { suite: true }).env });
    await peer.initialize();
    peer.writeLine(JSON.stringify({ jsonrpc: '2.0', id: 'list', method: 'tools/list' }));
    tools = (((await peer.response('list', REPLY_MS))?.result ?? { tools: [] }) as { tools: Tool[] }).tools;
  });
  afterAll(async () => {
    if (peer.child.exitCode === null) peer.child.kill('SIGKILL');
    await peer.exited;
  });

  it(
    'answers every framed request with an id, whatever the framing',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(framingArb, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
          const expected: Array<string | number> = [];
          for (const framed of batch) {
            const id = nextId();
            peer.writeLine(framed.line(id));
            if (framed.answered) expected.push(id);
          }
          // The server is still listening after the batch: a ping gets its pong.
          const ping = nextId();
          peer.writeLine(JSON.stringify({ jsonrpc: '2.0', id: ping, method: 'ping' }));
          expected.push(ping);
          const replies = await Promise.all(expected.map((id) => peer.response(id, REPLY_MS)));
          for (const [i, reply] of replies.entries()) expect(reply, `no reply to id ${String(expected[i])}`).toBeDefined();
          expect(peer.badLines).toEqual([]);
        }),
        runs(FRAMING_CASES),
      );
    },
    TEST_TIMEOUT,
  );

  it(
    'answers every tool call with schema-generated arguments, refusing those that break the schema',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(toolCaseArb(tools, cwd), { minLength: BATCH, maxLength: BATCH }), async (batch) => {
          const ids = batch.map(() => nextId());
          for (const [i, c] of batch.entries()) peer.writeLine(callLine(ids[i] as string | number, c));
          const replies = await Promise.all(ids.map((id) => peer.response(id, REPLY_MS)));
          for (const [i, c] of batch.entries()) checkToolReply(c, replies[i], 'stdio');
          expect(peer.badLines).toEqual([]);
        }),
        runs(TOOL_CASES),
      );
      expect(succeeded.stdio).toBeGreaterThan(0);
    },
    TEST_TIMEOUT,
  );

  it('is still alive, within its memory bound, and exits cleanly', async () => {
    expect(peer.child.exitCode).toBeNull();
    const rss = rssKiB(peer.child.pid as number);
    expect(rss).toBeLessThan(RSS_LIMIT_KIB);
    expect(peer.badLines).toEqual([]);
    expect(await peer.close()).toBe(0);
  }, 30_000);
});

// ---- HTTP ------------------------------------------------------------------------------

describe(`fuzz over HTTP (${CASES} cases)`, () => {
  let peer: HttpFuzzPeer;
  let tools: Tool[] = [];
  let cwd = '';
  let next = 0;
  const nextId = () => {
    next += 1;
    return next % 3 === 0 ? `h-${next}` : next;
  };

  beforeAll(async () => {
    cwd = suiteTempDir('ah-fuzz-http-');
    peer = await HttpFuzzPeer.start(isolatedEnv({}, { suite: true }).env);
    const list = await peer.post(JSON.stringify({ jsonrpc: '2.0', id: 'list', method: 'tools/list' }), true);
    tools = (((messagesOf(list.type, list.body) ?? []).find((m) => m.id === 'list')?.result ?? { tools: [] }) as { tools: Tool[] }).tools;
  });
  afterAll(async () => {
    await peer.stop();
  });

  /** Every POST is answered below 500 with parseable JSON-RPC; a readable id gets its own reply. */
  async function postAndCheck(body: string, id: string | number | undefined, inSession: boolean): Promise<Message | undefined> {
    const res = await peer.post(body, inSession);
    expect(res.status, `${res.status} for ${body.slice(0, 200)}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
    // The body cap answers before any JSON-RPC is read (there is no id to answer yet): that refusal
    // is the transport's own {error: {code, message}} with 413, and only for a body over the cap.
    if (res.status === 413) {
      expect(Buffer.byteLength(body), `413 for a body under the cap: ${body.slice(0, 200)}`).toBeGreaterThan(HTTP_BODY_CAP);
      expect((JSON.parse(res.body) as { error?: { code?: string } }).error?.code).toBe('REQUEST_TOO_LARGE');
      return OVER_CAP;
    }
    const messages = messagesOf(res.type, res.body);
    if (messages === undefined) {
      // Not JSON-RPC: only our own route errors ({error: {code, message}}) may answer that way.
      expect(() => JSON.parse(res.body), `unparseable body: ${res.body.slice(0, 200)}`).not.toThrow();
      return undefined;
    }
    for (const m of messages) expect(m.jsonrpc, JSON.stringify(m)).toBe('2.0');
    if (id === undefined || !inSession) return undefined;
    const reply = messages.find((m) => m.id === id && ('result' in m || 'error' in m));
    // An answer with id null is acceptable only for a refusal (4xx).
    if (!reply) expect(res.status, `no reply to ${String(id)}: ${res.status} ${res.body.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
    return reply;
  }

  it(
    'answers every framed POST, in and out of the session',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.tuple(framingArb, fc.boolean()), { minLength: BATCH, maxLength: BATCH }), async (batch) => {
          await Promise.all(
            batch.map(([framed, outOfSession]) => {
              const id = nextId();
              return postAndCheck(framed.line(id), framed.answered ? id : undefined, !outOfSession);
            }),
          );
        }),
        runs(FRAMING_CASES),
      );
    },
    TEST_TIMEOUT,
  );

  it(
    'answers every tool call with schema-generated arguments, refusing those that break the schema',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(toolCaseArb(tools, cwd), { minLength: BATCH, maxLength: BATCH }), async (batch) => {
          await Promise.all(
            batch.map(async (c) => {
              const id = nextId();
              const reply = await postAndCheck(callLine(id, c), id, true);
              checkToolReply(c, reply, 'http');
            }),
          );
        }),
        runs(TOOL_CASES),
      );
      expect(succeeded.http).toBeGreaterThan(0);
    },
    TEST_TIMEOUT,
  );

  it('is still alive and within its memory bound', async () => {
    expect(peer.server.child.exitCode).toBeNull();
    expect(rssKiB(peer.pid)).toBeLessThan(RSS_LIMIT_KIB);
    const ready = await fetch(`http://127.0.0.1:${peer.server.port}/health/ready`);
    expect(ready.status).toBe(200);
  }, 30_000);
});
