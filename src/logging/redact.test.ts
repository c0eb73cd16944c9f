import { describe, expect, it } from 'vitest';
import { isSensitiveName, REDACTED, redactArgv, redactCommandLine, redactText, redactValue, tokenize } from './redact.js';

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

  it('redacts credential-bearing flags of known programs in argv, keeping user names', () => {
    const pw = 'hunter2';
    const cases: [string[], string[]][] = [
      [
        ['run', 'check', '--', 'curl', '--user', `bob:${pw}`, 'https://h/'],
        ['run', 'check', '--', 'curl', '--user', `bob:${REDACTED}`, 'https://h/'],
      ],
      [
        ['curl', '-u', `bob:${pw}`, '-U', `p:${pw}`],
        ['curl', '-u', `bob:${REDACTED}`, '-U', `p:${REDACTED}`],
      ],
      [
        ['curl', `-ubob:${pw}`, `--user=bob:${pw}`],
        ['curl', `-ubob:${REDACTED}`, `--user=bob:${REDACTED}`],
      ],
      [
        ['/usr/bin/curl', '--oauth2-bearer', pw],
        ['/usr/bin/curl', '--oauth2-bearer', REDACTED],
      ],
      [
        ['curl', '-H', `Authorization: Bearer ${pw}`],
        ['curl', '-H', `Authorization: ${REDACTED}`],
      ],
      [
        ['mysql', `-p${pw}`, '-u', 'root', 'db'],
        ['mysql', `-p${REDACTED}`, '-u', 'root', 'db'],
      ],
      [
        ['sshpass', '-p', pw, 'ssh', 'h'],
        ['sshpass', '-p', REDACTED, 'ssh', 'h'],
      ],
      [
        ['psql', '--token', pw],
        ['psql', '--token', REDACTED],
      ],
      [
        ['git', '--user', `me:${pw}`],
        ['git', '--user', `me:${REDACTED}`],
      ],
    ];
    for (const [argv, expected] of cases) {
      expect(redactArgv(argv)).toEqual(expected);
      expect(JSON.stringify(redactArgv(argv))).not.toContain(pw);
    }
    // Flags that only look alike stay: sort -u, a user name with no password, grep -p.
    expect(redactArgv(['sort', '-u', 'file'])).toEqual(['sort', '-u', 'file']);
    expect(redactArgv(['curl', '--user', 'bob', 'https://h/'])).toEqual(['curl', '--user', 'bob', 'https://h/']);
    expect(redactArgv(['grep', '-pattern'])).toEqual(['grep', '-pattern']);
  });

  it('redacts a logged argv field (run.check over MCP) and credentials in a saved shell command', () => {
    const logged = redactValue({ argv: ['curl', '-u', 'bob:hunter2', 'https://h/'], timeout_secs: 5 }) as { argv: string[] };
    expect(logged.argv).toEqual(['curl', '-u', `bob:${REDACTED}`, 'https://h/']);
    expect(redactText('curl --user bob:hunter2 https://h/ | jq .')).toBe(`curl --user ${REDACTED} https://h/ | jq .`);
    expect(redactText('curl -u bob:hunter2 https://h/')).toBe(`curl -u ${REDACTED} https://h/`);
    expect(redactText('tool --proxy-user=bob:hunter2 x')).toBe(`tool --proxy-user=bob:${REDACTED} x`);
    expect(redactText('mysql -u root -phunter2 db')).toBe(`mysql -u ${REDACTED} -p${REDACTED} db`);
    expect(redactText('echo -U bob and ratio 3:4')).toBe('echo -U bob and ratio 3:4');
  });

  it('redacts a saved shell command word by word, like argv', () => {
    expect(redactCommandLine('TOKEN=plain npm publish --password hunter2 && curl -u bob:pw https://h/ | jq .')).toBe(
      `TOKEN=${REDACTED} npm publish --password ${REDACTED} && curl -u bob:${REDACTED} https://h/ | jq .`,
    );
    expect(redactCommandLine('export API_KEY=abc; make test')).toBe(`export API_KEY=${REDACTED}; make test`);
    expect(redactCommandLine('npm test -- --grep "a b"')).toBe('npm test -- --grep "a b"');
    expect(redactValue({ name: 'deploy', command: 'mysql -phunter2 db' })).toEqual({ name: 'deploy', command: `mysql -p${REDACTED} db` });
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
