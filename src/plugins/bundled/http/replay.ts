import { defineCommand } from '../../../catalog/descriptor.js';
import { RootObject, type Static, Type } from '../../../catalog/schema.js';
import { AhError } from '../../../errors.js';
import { writeEffects } from './effects.js';
import { BODY_INPUTS, CLI_ALIASES, EXPECT_INPUTS, transportInputs } from './inputs.js';
import { BASIC_SLOT, statelessUnlessRelativeFile } from './one-off.js';
import { renderResponse, type ResponseOutput, responseOutput } from './output.js';

const input = RootObject({
  curl: Type.String({ minLength: 1, maxLength: 65_536, description: 'A curl command line (the supported subset; never run by a shell)' }),
  // No defaults here: an explicit flag overrides the curl command, an absent one leaves it alone.
  ...transportInputs(false),
  ...BODY_INPUTS,
  ...EXPECT_INPUTS,
});
type Input = Static<typeof input>;

export const replay = defineCommand({
  id: 'http.replay',
  title: 'Replay a curl command',
  description:
    "Send the request a curl command line describes (-X/--request, -H/--header, -d/--data/--data-raw/--data-binary, --json, -u/--user, -m/--max-time, --url, -I/--head, -G/--get, the URL); any other curl option is refused with INVALID_ARGUMENT 'unsupported curl option in replay'. Explicit options (headers, body, timeout, expectations) override the curl command. Nothing is run by a shell.",
  inputSchema: input,
  outputSchema: responseOutput('http.replay'),
  effects: writeEffects('Sends the request the curl command describes, with whatever method it names.'),
  examples: [
    {
      description: 'Replay a copied curl command',
      arguments: { curl: "curl -X POST -H 'Content-Type: application/json' -d '{\"a\":1}' http://127.0.0.1:8080/items" },
    },
    { description: 'Replay with an expectation', arguments: { curl: 'curl http://127.0.0.1:8080/health', expect_status: 200 } },
  ],
  credentialSlots: [BASIC_SLOT],
  cli: { aliases: CLI_ALIASES },
  stateless: statelessUnlessRelativeFile,
  render: renderResponse,
  async run(args: Input, ctx): Promise<ResponseOutput> {
    const [{ parseCurl }, { performRequest, slotValues }, { parseHeader }] = await Promise.all([
      import('./curl.js'),
      import('./perform.js'),
      import('./plan.js'),
    ]);
    const curl = parseCurl(args.curl);
    if (curl.user !== undefined && !curl.user.includes(':')) {
      throw new AhError({
        code: 'INVALID_ARGUMENT',
        message: 'curl -u needs user:password (replay cannot prompt)',
        domain: 'http',
        operation: 'http.replay',
      });
    }
    const explicitBody = args.json !== undefined || args.json_file !== undefined || args.body !== undefined || args.body_file !== undefined;
    let url = curl.url;
    let method = curl.method ?? (curl.head ? 'HEAD' : (curl.data !== undefined || curl.json !== undefined) && !curl.get ? 'POST' : 'GET');
    let body: string | undefined = curl.data ?? curl.json;
    if (curl.get && curl.data !== undefined) {
      // -G moves the data into the query string, as curl does.
      url += (url.includes('?') ? '&' : '?') + curl.data;
      body = undefined;
      if (curl.method === undefined) method = 'GET';
    }
    const headers = [...curl.headers];
    if (curl.json !== undefined) {
      const names = new Set(headers.map((h) => h.slice(0, h.indexOf(':')).trim().toLowerCase()));
      if (!names.has('content-type')) headers.push('Content-Type: application/json');
      if (!names.has('accept')) headers.push('Accept: application/json');
    }
    // An explicit header replaces every curl header of the same name.
    const explicit = (args.headers ?? []).map((h) => parseHeader(h));
    const overridden = new Set(explicit.map(([name]) => name.toLowerCase()));
    const merged = [...headers.filter((h) => !overridden.has(h.slice(0, h.indexOf(':')).trim().toLowerCase())), ...(args.headers ?? [])];
    const timeout =
      args.timeout_secs ?? (curl.maxTimeSecs !== undefined ? Math.min(3600, Math.max(1, Math.ceil(curl.maxTimeSecs))) : undefined);
    const request = {
      ...args,
      url,
      headers: merged,
      ...(timeout !== undefined ? { timeout_secs: timeout } : {}),
      ...(explicitBody || body === undefined ? {} : { body }),
    };
    return performRequest('http.replay', method, request, ctx, {
      bearer: args.bearer,
      basic: args.basic ?? curl.user,
      slot: slotValues(ctx),
    });
  },
});
