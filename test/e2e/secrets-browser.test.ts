// The browser setup page as a person uses it: `ah secrets add|edit --open` prints the URL, real
// headless Chromium opens it against the real HTTP server and vault. Skipped only where
// /usr/bin/chromium is not installed, and then reported (test/helpers/requires.ts).
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM as NEED_CHROMIUM, unavailable } from '../helpers/requires.js';
import { expectNowhere, startVaultServer, type VaultServer } from '../helpers/secrets.js';

const CHROMIUM = '/usr/bin/chromium';
const SUITE = 'secrets setup in Chromium';
const noChromium = unavailable(SUITE, NEED_CHROMIUM);
const README_SHOT = resolve(import.meta.dirname, '../../docs/images/secrets-setup.png');
const ARTIFACTS = resolve(import.meta.dirname, '../../test-artifacts');

let vs: VaultServer;
let browser: Browser;
const cli: string[] = [];
const capabilities: string[] = [];
const planted = {
  password: `pw-${randomBytes(12).toString('hex')}`,
  token: `ghp_${randomBytes(16).toString('hex')}`,
};

beforeAll(async () => {
  if (noChromium) return;
  vs = await startVaultServer();
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    env: { ...process.env, HOME: join(vs.root, 'home') },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await vs?.close();
});

/** `ah --json secrets add|edit … --open` (AH_NO_BROWSER=1, AH_MCP_HTTP_URL set): the printed setup URL. */
async function setupUrl(args: string[]): Promise<string> {
  const run = await vs.ah(['--json', 'secrets', ...args, '--open']);
  cli.push(run.stdout, run.stderr);
  expect(run.code, run.stderr).toBe(0);
  const url = run.json<{ setup_url: string }>().setup_url;
  expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${vs.port}/secrets/setup\\?capability=[0-9a-f]{64}$`));
  capabilities.push(new URL(url).searchParams.get('capability') ?? '');
  return url;
}

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 760, height: 1000 }, colorScheme: 'light' });
  return context.newPage();
}

describe.skipIf(noChromium)(SUITE, () => {
  it('fills, fails with the typed values kept, saves once and shows the confirmation; the link then dies', async () => {
    const url = await setupUrl(['add', 'prod-db', '--kind', 'postgres', '--label', 'Production DB', '--description', 'read replica']);
    const page = await newPage();
    const response = await page.goto(url);
    expect(response?.status()).toBe(200);
    await expect(page.title()).resolves.toContain('prod-db');
    const entries = await page.evaluate(() => (globalThis as any).history.length as number);
    await page.getByLabel('Host').fill('db.internal.example');
    await page.getByLabel('Port').fill('5432');
    await page.getByLabel('Database').fill('app');
    await page.getByLabel('User').fill('reporting');
    await page.getByLabel('Password').fill(planted.password);
    await page.getByLabel('SSL mode').selectOption('require');
    await page.evaluate(() => (globalThis as any).document.activeElement?.blur());
    // The test artifact (kept after the run, git-ignored); the README copy only when asked for.
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'secrets-setup.png'), fullPage: true });
    if (process.env.AH_UPDATE_SCREENSHOTS === '1') await page.screenshot({ path: README_SHOT, fullPage: true });
    await page.getByLabel('User').fill('');

    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForSelector('#status.error');
    expect(await page.textContent('#status')).toContain('user');
    expect(await page.getAttribute('#f-user', 'aria-invalid')).toBe('true');
    expect(await page.inputValue('#f-password')).toBe(planted.password);
    expect(await page.inputValue('#f-host')).toBe('db.internal.example');
    expect(await page.isEnabled('#save')).toBe(true);

    await page.getByLabel('User').fill('reporting');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForSelector('#done-view:not([hidden])');
    expect(await page.isHidden('#form-view')).toBe(true);
    expect(await page.textContent('#done-id')).toBe('prod-db');
    expect(await page.textContent('#done-kind')).toBe('postgres');
    expect(await page.textContent('#done-label')).toBe('Production DB');
    expect(await page.textContent('#done-description')).toBe('read replica');
    expect(await page.content()).not.toContain(planted.password);
    // Saving added no history entry (fetch, not a navigation).
    expect(await page.evaluate(() => (globalThis as any).history.length as number)).toBe(entries);
    await page.getByRole('button', { name: 'Close' }).click();
    if (!page.isClosed()) await page.waitForSelector('#close-hint:not(:empty)');

    const again = await newPage();
    const rejected = await again.goto(url);
    expect(rejected?.status()).toBe(403);
    expect(await again.textContent('h1')).toBe('Setup link rejected');
    expect(await again.textContent('body')).toContain('VAULT_SETUP_CAPABILITY_INVALID');

    const stored = await vs.vault.read('prod-db');
    expect(stored.values).toEqual({
      host: 'db.internal.example',
      port: '5432',
      database: 'app',
      user: 'reporting',
      password: planted.password,
      sslmode: 'require',
    });
  });

  it('blocks an injected inline script and reports the CSP violation', async () => {
    const url = await setupUrl(['add', 'csp-probe', '--kind', 'gitlab-token']);
    const page = await newPage();
    const messages: string[] = [];
    page.on('console', (m) => messages.push(m.text()));
    await page.goto(url);
    // Browser-side code; the project compiles without DOM types, hence the loose globalThis.
    const outcome = await page.evaluate(async () => {
      const w = globalThis as any;
      const violations: string[] = [];
      w.document.addEventListener('securitypolicyviolation', (e: any) => violations.push(e.effectiveDirective));
      const script = w.document.createElement('script');
      script.textContent = 'window.injected = true;';
      w.document.body.appendChild(script);
      const handler = w.document.createElement('div');
      handler.setAttribute('onclick', 'window.injected = true;');
      w.document.body.appendChild(handler);
      handler.click();
      await new Promise((r) => setTimeout(r, 200));
      return { injected: w.injected === true, violations };
    });
    expect(outcome.injected).toBe(false);
    expect(outcome.violations).toContain('script-src-elem');
    expect(outcome.violations).toContain('script-src-attr');
    expect(messages.some((line) => line.includes('Content Security Policy'))).toBe(true);
  });

  it('saves once on a double click on Save, and the server refuses a racing second post', async () => {
    const url = await setupUrl(['add', 'gh-bot', '--kind', 'github-token', '--label', 'GitHub bot']);
    const page = await newPage();
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST') posts.push(r.url());
    });
    await page.goto(url);
    await page.getByLabel('Token').fill(planted.token);
    await page.getByRole('button', { name: 'Save' }).dblclick();
    await page.waitForSelector('#done-view:not([hidden])');
    await page.waitForTimeout(300);
    expect(posts).toHaveLength(1);
    expect(await page.textContent('#done-label')).toBe('GitHub bot');

    // Bypassing the page script: two simultaneous posts with one fresh capability, one wins.
    const race = await setupUrl(['edit', 'gh-bot']);
    const statuses = await page.evaluate(async (target) => {
      const post = () =>
        fetch(target, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: 'token=racing-value',
        }).then((r) => r.status);
      return Promise.all([post(), post()]);
    }, race);
    expect(statuses.sort()).toEqual([200, 403]);
  });

  it('leaves no planted value or capability in server output, logs or the vault file', () => {
    expect(capabilities.length).toBeGreaterThanOrEqual(4);
    const needles: Record<string, string> = { password: planted.password, token: planted.token, 'master key': vs.masterKey };
    capabilities.forEach((c, i) => {
      needles[`capability ${i}`] = c;
    });
    expectNowhere({ ...vs.leakSurfaces(), 'vault file': vs.vaultBytes() }, needles);
    // The CLI prints the URL (the capability) by design, but never a value or the key.
    expectNowhere({ 'cli output': cli.join('\n') }, { password: planted.password, token: planted.token, 'master key': vs.masterKey });
  });
});
