import { describe, expect, it } from 'vitest';
import { isSensitiveName, REDACTED, redactArgv, redactText, redactValue, tokenize } from './redact.js';

describe('redaction', () => {
  it('tokenizes at separators, case changes and acronyms', () => {
    expect(tokenize('x-api-key')).toEqual(['x', 'api', 'key']);
    expect(tokenize('APIKey')).toEqual(['api', 'key']);
    expect(tokenize('dbPassword')).toEqual(['db', 'password']);
    expect(tokenize('HTTPBasicAuth')).toEqual(['http', 'basic', 'auth']);
  });

  it.each([
    'password',
    'passwd',
    'token',
    'secret',
    'Authorization',
    'cookie',
    'credential',
    'bearer',
    'basic',
    'api_key',
    'accessKey',
    'private-key',
    'client_secret',
    'refreshToken',
    'GITHUB_TOKEN',
    'db_password',
  ])('%s is sensitive', (name) => expect(isSensitiveName(name)).toBe(true));

  it.each(['monkey', 'tokenizer', 'keyboard', 'basics', 'basic_auth_mode', 'path', 'api', 'key', 'secretary'])(
    '%s is not sensitive',
    (name) => expect(isSensitiveName(name)).toBe(false),
  );

  it('redacts JSON keys recursively and secrets inside strings', () => {
    expect(
      redactValue({
        path: 'a',
        headers: ['Authorization: Bearer abc', 'Accept: json'],
        nested: { apiKey: 'k', list: [{ password: 'p' }] },
        url: 'https://u:p@host/x?token=t&q=1',
      }),
    ).toEqual({
      path: 'a',
      headers: [`Authorization: ${REDACTED}`, 'Accept: json'],
      nested: { apiKey: REDACTED, list: [{ password: REDACTED }] },
      url: `https://${REDACTED}@host/x?token=${REDACTED}&q=1`,
    });
  });

  it('redacts argv flag values in both forms, including values that start with a dash', () => {
    expect(redactArgv(['http', 'get', '--password', '-secret-', '--token=abc', '--limit', '3', 'https://a:b@h/'])).toEqual([
      'http',
      'get',
      '--password',
      REDACTED,
      `--token=${REDACTED}`,
      '--limit',
      '3',
      `https://${REDACTED}@h/`,
    ]);
  });

  it('leaves ordinary text alone', () => {
    expect(redactText('monkey business: fine')).toBe('monkey business: fine');
  });

  it('redacts curl user credentials and sensitive curl headers (http replay)', () => {
    expect(redactText("curl -u alice:s3cret -H 'Accept: x' http://h/")).toBe(`curl -u ${REDACTED} -H 'Accept: x' http://h/`);
    expect(redactText('curl --user=alice:s3cret http://h/')).toBe(`curl --user=${REDACTED} http://h/`);
    expect(redactText(`curl -u 'a b:c d' http://h/`)).toBe(`curl -u ${REDACTED} http://h/`);
    expect(redactText(`curl -H "Cookie: sid=abc; t=1" -H 'X-Api-Key: k1' -H Cookie:zz http://h/`)).toBe(
      `curl -H "Cookie: ${REDACTED}" -H 'X-Api-Key: ${REDACTED}' -H Cookie:${REDACTED} http://h/`,
    );
    expect(redactText("curl -H 'X-Trace: keep' http://h/")).toBe("curl -H 'X-Trace: keep' http://h/");
  });
});
