import { describe, expect, it } from 'vitest';
import { MAX_RENDERED_TEXT_BYTES, successResult } from './results.js';

const meta = (r: ReturnType<typeof successResult>) => r._meta?.['dev.aihelper/execution'] as Record<string, unknown>;

describe('successResult', () => {
  it('carries the structured data, its compact JSON and the request id', () => {
    const r = successResult({ a: 1, b: 'x' }, 'mcp:n:1:e:1');
    expect(r.structuredContent).toEqual({ a: 1, b: 'x' });
    expect(r.content).toEqual([{ type: 'text', text: '{"a":1,"b":"x"}' }]);
    expect(meta(r)).toEqual({ request_id: 'mcp:n:1:e:1' });
  });

  it('adds a small human rendering that says something the data does not', () => {
    expect(meta(successResult({ content: 'one\ntwo' }, 'r', () => '1\tone\n2\ttwo'))).toMatchObject({ text: '1\tone\n2\ttwo' });
  });

  it('leaves out a rendering that repeats a top-level string of the data', () => {
    expect(meta(successResult({ command: 'file.read', content: 'one\ntwo' }, 'r', () => 'one\ntwo'))).not.toHaveProperty('text');
  });

  it('leaves out a rendering over the size bound', () => {
    const big = 'é'.repeat(MAX_RENDERED_TEXT_BYTES / 2 + 1);
    expect(meta(successResult({ n: 1 }, 'r', () => big))).not.toHaveProperty('text');
  });

  it('does not render a result whose JSON is 64 KiB or more', () => {
    let rendered = 0;
    const render = () => {
      rendered += 1;
      return 'a short summary';
    };
    expect(meta(successResult({ rows: 'x'.repeat(64 * 1024) }, 'r', render))).not.toHaveProperty('text');
    expect(rendered).toBe(0);
    expect(meta(successResult({ rows: 'x'.repeat(1024) }, 'r', render))).toMatchObject({ text: 'a short summary' });
    expect(rendered).toBe(1);
  });

  it('keeps notices', () => {
    const notices = [{ code: 'X', message: 'm' }];
    expect(meta(successResult({ n: 1 }, 'r', undefined, notices as never))).toMatchObject({ notices });
  });
});
