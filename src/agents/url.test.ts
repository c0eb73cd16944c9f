import { describe, expect, test } from 'vitest';
import type { AhError } from '../errors.js';
import { checkMcpUrl, DEFAULT_HTTP_URL, readinessUrl } from './url.js';

function code(raw: string): string | null {
  try {
    checkMcpUrl(raw);
    return null;
  } catch (error) {
    return (error as AhError).code;
  }
}

describe('MCP endpoint URL rules', () => {
  test('loopback http URLs at /mcp pass unchanged', () => {
    for (const ok of [DEFAULT_HTTP_URL, 'http://localhost:9000/mcp', 'http://[::1]:8787/mcp', 'http://127.0.0.1/mcp']) {
      expect(code(ok)).toBeNull();
      expect(checkMcpUrl(ok)).toBe(ok);
    }
  });

  test('wrong scheme, user info, path, query or fragment: AI_URL_INVALID', () => {
    for (const bad of [
      'https://127.0.0.1:8787/mcp',
      'http://user:pw@127.0.0.1:8787/mcp',
      'http://127.0.0.1:8787/',
      'http://127.0.0.1:8787/mcp/',
      'http://127.0.0.1:8787/mcp?x=1',
      'http://127.0.0.1:8787/mcp#f',
      'not a url',
      '127.0.0.1:8787/mcp',
    ]) {
      expect(code(bad), bad).toBe('AI_URL_INVALID');
    }
  });

  test('a host other than 127.0.0.1, ::1 or localhost: AI_URL_NOT_LOOPBACK', () => {
    for (const bad of ['http://0.0.0.0:8787/mcp', 'http://192.168.1.2:8787/mcp', 'http://example.com/mcp', 'http://127.0.0.2:8787/mcp']) {
      expect(code(bad), bad).toBe('AI_URL_NOT_LOOPBACK');
    }
  });

  test('readiness is probed at the origin', () => {
    expect(readinessUrl('http://[::1]:8787/mcp')).toBe('http://[::1]:8787/health/ready');
  });
});
