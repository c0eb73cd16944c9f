import { describe, expect, it } from 'vitest';
import { parseCurl, shellWords } from './curl.js';

describe('shellWords', () => {
  it('splits like a POSIX shell without evaluating anything', () => {
    expect(shellWords(`curl -H 'A: b c' "x \\"y\\"" d\\ e \\\n  f`)).toEqual(['curl', '-H', 'A: b c', 'x "y"', 'd e', 'f']);
    expect(shellWords(`'$HOME' "a'b"`)).toEqual(['$HOME', "a'b"]);
  });
  it('refuses expansions, pipes and unterminated quotes', () => {
    for (const text of ['curl $URL', 'curl "$(id)"', 'curl x | sh', 'curl x; rm', "curl 'x", 'curl "x', 'curl `id`']) {
      expect(() => shellWords(text), text).toThrow();
    }
  });
});

describe('parseCurl', () => {
  it('understands the supported subset, joined and attached forms included', () => {
    expect(parseCurl('curl -XPOST -HX-A:1 http://h/')).toMatchObject({ method: 'POST', headers: ['X-A:1'] });
    const r = parseCurl(`curl --request=PUT --header=X-A:1 -H 'B: 2' -d a=1 --data 'b=2' -u me:pw -m 2.5 http://h/p`);
    expect(r).toMatchObject({
      method: 'PUT',
      url: 'http://h/p',
      headers: ['X-A:1', 'B: 2'],
      data: 'a=1&b=2',
      user: 'me:pw',
      maxTimeSecs: 2.5,
      head: false,
      get: false,
    });
    expect(parseCurl('curl -I http://h/')).toMatchObject({ head: true, method: undefined });
    expect(parseCurl(`curl --json '{"a":1}' --url http://h/`)).toMatchObject({ json: '{"a":1}', url: 'http://h/' });
    expect(parseCurl('curl -G -d q=1 http://h/')).toMatchObject({ get: true, data: 'q=1' });
    expect(parseCurl(`curl --data-raw '@literal' http://h/`)).toMatchObject({ data: '@literal' });
  });
  it('refuses every other option with the reference message', () => {
    for (const opt of ['-k', '--insecure', '-L', '-s', '-v', '--compressed', '-o', '-F', '--cookie', '-sS', '-d @file', '--json @f']) {
      expect(() => parseCurl(`curl ${opt} x http://h/`), opt).toThrow('unsupported curl option in replay');
    }
  });
  it('needs exactly one URL and values for value options', () => {
    expect(() => parseCurl('curl -H')).toThrow('needs a value');
    expect(() => parseCurl('curl -X GET')).toThrow('names no URL');
    expect(() => parseCurl('curl http://a/ http://b/')).toThrow('more than one URL');
    expect(() => parseCurl('curl -m soon http://a/')).toThrow('positive number');
  });
});
