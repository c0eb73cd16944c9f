import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { AhError } from '../errors.js';
import { openSetup, setupOrigin, validateSetupUrl } from './setup-client.js';

const ORIGIN = 'http://127.0.0.1:8787';
const CAP = 'ab'.repeat(32);
const GOOD = `${ORIGIN}/secrets/setup?capability=${CAP}`;

function failure(fn: () => unknown): AhError {
  try {
    fn();
  } catch (error) {
    return error as AhError;
  }
  throw new Error('expected a failure');
}

describe('setupOrigin (AH_MCP_HTTP_URL)', () => {
  it('defaults and accepts exactly http://127.0.0.1:PORT', () => {
    expect(setupOrigin(undefined)).toBe(ORIGIN);
    expect(setupOrigin('')).toBe(ORIGIN);
    expect(setupOrigin('http://127.0.0.1:9000')).toBe('http://127.0.0.1:9000');
    expect(setupOrigin('http://127.0.0.1:9000/')).toBe('http://127.0.0.1:9000');
  });

  it.each([
    ['https', 'https://127.0.0.1:9000'],
    ['other host', 'http://localhost:9000'],
    ['remote host', 'http://example.com:9000'],
    ['userinfo', 'http://user:pw@127.0.0.1:9000'],
    ['path', 'http://127.0.0.1:9000/mcp'],
    ['query', 'http://127.0.0.1:9000/?x=1'],
    ['fragment', 'http://127.0.0.1:9000/#x'],
    ['no port', 'http://127.0.0.1'],
    ['port 0', 'http://127.0.0.1:0'],
    ['port out of range', 'http://127.0.0.1:70000'],
    ['leading zero', 'http://127.0.0.1:08787'],
    ['whitespace', ' http://127.0.0.1:9000'],
  ])('rejects %s', (_name, value) => {
    expect(failure(() => setupOrigin(value)).code).toBe('VAULT_SETUP_URL_INVALID');
  });
});

describe('validateSetupUrl', () => {
  it('accepts the exact shape on the same origin', () => {
    expect(validateSetupUrl(GOOD, ORIGIN)).toBe(GOOD);
  });

  it.each([
    ['other host', `http://localhost:8787/secrets/setup?capability=${CAP}`],
    ['remote host', `http://evil.example:8787/secrets/setup?capability=${CAP}`],
    ['other port', `http://127.0.0.1:8788/secrets/setup?capability=${CAP}`],
    ['https', `https://127.0.0.1:8787/secrets/setup?capability=${CAP}`],
    ['userinfo', `http://u:p@127.0.0.1:8787/secrets/setup?capability=${CAP}`],
    ['user only', `http://u@127.0.0.1:8787/secrets/setup?capability=${CAP}`],
    ['extra query', `${GOOD}&next=http://evil.example`],
    ['repeated capability', `${GOOD}&capability=${CAP}`],
    ['other query key', `${ORIGIN}/secrets/setup?cap=${CAP}`],
    ['no query', `${ORIGIN}/secrets/setup`],
    ['empty capability', `${ORIGIN}/secrets/setup?capability=`],
    ['encoded capability', `${ORIGIN}/secrets/setup?capability=%2e%2e`],
    ['fragment', `${GOOD}#x`],
    ['empty fragment', `${GOOD}#`],
    ['path', `${ORIGIN}/secrets/setup/x?capability=${CAP}`],
    ['trailing slash path', `${ORIGIN}/secrets/setup/?capability=${CAP}`],
    ['dot segments', `${ORIGIN}/x/../secrets/setup?capability=${CAP}`],
    ['javascript', `javascript:alert(1)`],
    ['not a string', 42],
    ['empty', ''],
  ])('rejects %s without echoing the capability', (_name, value) => {
    const error = failure(() => validateSetupUrl(value, ORIGIN));
    expect(error.code).toBe('VAULT_SETUP_URL_INVALID');
    expect(`${error.message} ${error.detail} ${error.hint ?? ''}`).not.toContain(CAP);
  });
});

describe('openSetup', () => {
  it('reports a stopped server with a hint to start one', async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const error = (await openSetup({
      env: { AH_MCP_HTTP_URL: `http://127.0.0.1:${port}`, AH_NO_BROWSER: '1' },
      request: { action: 'create', id: 'x', kind: 'github-token' },
    }).catch((e: unknown) => e)) as AhError;
    expect(error.code).toBe('MCP_SERVER_UNAVAILABLE');
    expect(error.hint).toContain('ah mcp serve --transport http');
  });

  it('refuses a bad AH_MCP_HTTP_URL before any request', async () => {
    const error = (await openSetup({
      env: { AH_MCP_HTTP_URL: 'https://127.0.0.1:1', AH_NO_BROWSER: '1' },
      request: { action: 'edit', id: 'x' },
    }).catch((e: unknown) => e)) as AhError;
    expect(error.code).toBe('VAULT_SETUP_URL_INVALID');
  });
});
