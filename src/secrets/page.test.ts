import { describe, expect, it } from 'vitest';
import { escapeHtml, newNonce, renderError, renderForm, renderSuccess, setupHeaders } from './page.js';

const CAP = 'cd'.repeat(32);

describe('setup page', () => {
  it('sends a default-src none CSP with the nonce and the fixed security headers', () => {
    const headers = setupHeaders('abc');
    expect(headers['content-security-policy']).toMatch(/^default-src 'none'; /);
    expect(headers['content-security-policy']).toContain("script-src 'nonce-abc'");
    expect(headers['content-security-policy']).toContain("style-src 'nonce-abc'");
    expect(headers['content-security-policy']).not.toContain('unsafe');
    expect(headers['cache-control']).toBe('no-store');
    expect(headers['referrer-policy']).toBe('same-origin');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(setupHeaders()['content-security-policy']).toContain("script-src 'none'");
    expect(newNonce()).not.toBe(newNonce());
  });

  it('renders one nonced style and script and fields per kind, never filled', () => {
    const html = renderForm({ action: 'create', id: 'db', kind: 'postgres' }, CAP, 'N0nce');
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html.match(/<style/g)).toHaveLength(1);
    expect(html).toContain('<script nonce="N0nce">');
    expect(html).toContain('<style nonce="N0nce">');
    expect(html).toContain(`action="/secrets/setup?capability=${CAP}"`);
    expect(html).toMatch(/<input type="password" id="f-password" name="password"[^>]* required [^>]*autocomplete="new-password"/);
    expect(html).toMatch(/<input type="text" id="f-host" name="host"[^>]* required/);
    expect(html).toContain('<label for="f-port">');
    expect(html).toMatch(/<select id="f-sslmode"/);
    for (const input of html.match(/<input[^>]*>/g) ?? []) expect(input).not.toContain('value=');
    const key = renderForm({ action: 'edit', id: 'k', kind: 'ssh-key' }, CAP, 'n');
    expect(key).toMatch(/<textarea id="f-private_key" name="private_key"[^>]*><\/textarea>/);
    expect(key).not.toContain(' required');
    expect(key).toContain('leave empty to keep');
  });

  it('escapes metadata everywhere', () => {
    const evil = '<script>alert(1)</script>"\'&';
    const html = renderForm({ action: 'create', id: evil, kind: 'github-token', label: evil, description: evil }, CAP, 'n');
    expect(html).not.toContain('<script>alert');
    expect(escapeHtml(evil)).toBe('&#60;script&#62;alert(1)&#60;/script&#62;&#34;&#39;&#38;');
    const done = renderSuccess(
      { action: 'create', id: 'x', kind: 'github-token' },
      { id: 'x', kind: 'github-token', label: evil, description: null },
      'n',
    );
    expect(done).not.toContain('<script>alert');
    expect(done).toContain('id="close"');
    expect(renderError('VAULT_SETUP_CAPABILITY_INVALID', evil, 'n')).not.toContain('<script>alert');
  });
});
