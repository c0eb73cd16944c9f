/**
 * The HTML of the browser setup flow: the form, the confirmation and the rejection page. Pages are
 * self-contained (one inline style, one inline script) so the CSP can be `default-src 'none'` with
 * a per-response nonce; nothing stored is ever rendered except metadata.
 */
import { randomBytes } from 'node:crypto';
import type { SetupTarget } from './setup.js';
import { formFields } from './setup.js';
import { KIND_FIELDS, POSTGRES_SSLMODES, type SecretMetadata } from './types.js';

export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

/** Headers every setup response carries (JSON ones included, hence the optional nonce). */
export function setupHeaders(nonce?: string): Record<string, string> {
  const own = nonce === undefined ? "'none'" : `'nonce-${nonce}'`;
  return {
    'content-security-policy': [
      "default-src 'none'",
      `style-src ${own}`,
      `script-src ${own}`,
      // The form script posts with fetch to this same server.
      "connect-src 'self'",
      "form-action 'self'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
    'cache-control': 'no-store',
    // same-origin, not no-referrer: the latter makes browsers send `Origin: null`, which the local guard rejects.
    'referrer-policy': 'same-origin',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
  };
}

/** Error messages are lower-case fragments (for CLI composition); pages show them as sentences. */
function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1) + (/[.!?]$/.test(text) ? '' : '.');
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A field's label: its name as words, capitalised (`private_key` → Private key). */
function labelOf(name: string): string {
  const words = name === 'sslmode' ? 'SSL mode' : name.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const STYLE = `
:root { color-scheme: light dark; --fg:#1b1f24; --muted:#57606a; --bg:#f6f8fa; --card:#fff; --line:#d0d7de; --accent:#0969da; --bad:#cf222e; --good:#1a7f37; }
@media (prefers-color-scheme: dark) { :root { --fg:#e6edf3; --muted:#9198a1; --bg:#0d1117; --card:#161b22; --line:#30363d; --accent:#4493f8; --bad:#f85149; --good:#3fb950; } }
* { box-sizing: border-box; }
body { margin:0; font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif; color:var(--fg); background:var(--bg); }
main { max-width:34rem; margin:3rem auto; padding:2rem; background:var(--card); border:1px solid var(--line); border-radius:12px; }
h1 { font-size:1.35rem; margin:0 0 .25rem; }
p.lead { color:var(--muted); margin:0 0 1.5rem; }
code { font-family:ui-monospace,SFMono-Regular,Menlo,monospace; font-size:.92em; }
.field { margin:0 0 1rem; }
label { display:block; font-weight:600; margin-bottom:.3rem; }
.tag { font-weight:400; color:var(--muted); font-size:.85rem; }
input, select, textarea { width:100%; padding:.55rem .65rem; font:inherit; color:inherit; background:transparent; border:1px solid var(--line); border-radius:8px; }
textarea { min-height:9rem; font-family:ui-monospace,SFMono-Regular,Menlo,monospace; font-size:.85rem; }
input:focus, select:focus, textarea:focus, button:focus { outline:2px solid var(--accent); outline-offset:1px; }
[aria-invalid="true"] { border-color:var(--bad); }
button { font:inherit; font-weight:600; padding:.6rem 1.4rem; border:0; border-radius:8px; background:var(--accent); color:#fff; cursor:pointer; }
button[disabled] { opacity:.6; cursor:progress; }
#status { min-height:1.5rem; margin:1rem 0 0; }
#status.error, .error { color:var(--bad); }
.ok { color:var(--good); }
dl { display:grid; grid-template-columns:max-content 1fr; gap:.35rem 1rem; margin:1rem 0 1.5rem; }
dt { color:var(--muted); } dd { margin:0; overflow-wrap:anywhere; }
.note { color:var(--muted); font-size:.85rem; }
`;

function page(title: string, nonce: string, body: string, script: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
<script nonce="${nonce}">${script}</script>
</body>
</html>
`;
}

function fieldHtml(name: string, target: SetupTarget): string {
  const spec = KIND_FIELDS[target.kind];
  const required = target.action === 'create' && spec.required.includes(name);
  const tag = target.action === 'edit' ? 'leave empty to keep' : required ? 'required' : 'optional';
  const id = `f-${name}`;
  const common = `id="${id}" name="${name}" aria-describedby="status"${required ? ' required' : ''}`;
  // Credential managers are told to stay out: these values go to the vault, not the browser.
  const quiet = 'autocomplete="off" autocapitalize="off" spellcheck="false" data-lpignore="true" data-1p-ignore data-bwignore';
  let control: string;
  if (spec.multiline.includes(name)) {
    control = `<textarea ${common} ${quiet} rows="8" placeholder="-----BEGIN OPENSSH PRIVATE KEY-----"></textarea>`;
  } else if (name === 'sslmode') {
    const options = ['', ...POSTGRES_SSLMODES].map((m) => `<option value="${m}">${m === '' ? '(default)' : m}</option>`).join('');
    control = `<select ${common}>${options}</select>`;
  } else if (spec.plain.includes(name)) {
    const numeric = name === 'port' ? ' inputmode="numeric" pattern="[0-9]*"' : '';
    control = `<input type="text" ${common} ${quiet}${numeric}>`;
  } else {
    control = `<input type="password" ${common} ${quiet.replace('autocomplete="off"', 'autocomplete="new-password"')}>`;
  }
  return `<div class="field"><label for="${id}">${labelOf(name)} <span class="tag">(${tag})</span></label>${control}</div>`;
}

const CLOSE_TAB = `function closeTab() {
    window.close();
    var hint = document.getElementById('close-hint');
    if (hint) hint.textContent = 'If this tab stays open, you can close it yourself.';
  }`;

// Posts with fetch so a failure leaves every typed value in place and adds no history entry; the
// busy flag plus the disabled button make a double click send one request.
const FORM_SCRIPT = `
(function () {
  var form = document.getElementById('setup-form');
  var button = document.getElementById('save');
  var status = document.getElementById('status');
  var busy = false;
  function say(text, cls) { status.textContent = text; status.className = cls || ''; }
  function mark(fields) {
    Array.prototype.forEach.call(form.elements, function (el) {
      if (el.name) el.setAttribute('aria-invalid', fields.indexOf(el.name) >= 0 ? 'true' : 'false');
    });
  }
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    if (busy) return;
    busy = true;
    button.disabled = true;
    say('Saving\\u2026');
    fetch(form.getAttribute('action'), {
      method: 'POST',
      headers: { 'accept': 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(new FormData(form)).toString(),
      credentials: 'omit', cache: 'no-store', redirect: 'error'
    }).then(function (response) {
      return response.json().catch(function () { return null; }).then(function (data) {
        if (response.ok && data && data.secret) { done(data.secret); return; }
        var error = (data && data.error) || { message: 'Saving failed (HTTP ' + response.status + ').' };
        mark(error.fields || []);
        var text = String(error.message);
        say(text.charAt(0).toUpperCase() + text.slice(1) + (error.code ? ' (' + error.code + ')' : ''), 'error');
        // A spent or expired link cannot succeed any more; everything else can be fixed and retried.
        if (error.code !== 'VAULT_SETUP_CAPABILITY_INVALID') { busy = false; button.disabled = false; }
      });
    }, function () {
      say('Could not reach the local ah server. Is it still running?', 'error');
      busy = false; button.disabled = false;
    });
  });
  function done(secret) {
    form.reset();
    document.getElementById('form-view').hidden = true;
    var view = document.getElementById('done-view');
    ['id', 'kind', 'label', 'description'].forEach(function (key) {
      document.getElementById('done-' + key).textContent = secret[key] == null ? '\\u2014' : String(secret[key]);
    });
    view.hidden = false;
    document.getElementById('close').focus();
  }
  document.getElementById('close').addEventListener('click', closeTab);
  ${CLOSE_TAB}
})();
`;

function doneView(target: { action: string }, secret: SecretMetadata | undefined, hidden: boolean): string {
  const cell = (key: keyof SecretMetadata) => (secret ? escapeHtml(secret[key] ?? '\u2014') : '');
  return `<section id="done-view"${hidden ? ' hidden' : ''} aria-live="polite">
<h1 class="ok">Secret ${target.action === 'create' ? 'saved' : 'updated'}</h1>
<p class="lead">The values are stored encrypted in the ah vault. Only this metadata is shown.</p>
<dl>
<dt>ID</dt><dd id="done-id">${cell('id')}</dd>
<dt>Kind</dt><dd id="done-kind">${cell('kind')}</dd>
<dt>Label</dt><dd id="done-label">${cell('label')}</dd>
<dt>Description</dt><dd id="done-description">${cell('description')}</dd>
</dl>
<button type="button" id="close">Close</button>
<p id="close-hint" class="note"></p>
</section>`;
}

export function renderForm(target: SetupTarget, capability: string, nonce: string): string {
  const verb = target.action === 'create' ? 'Add' : 'Edit';
  const lead =
    target.action === 'create'
      ? 'Enter the values for this new secret. They are sent only to the local ah server and stored encrypted.'
      : 'Stored values are never shown. Fill in only what should change; empty fields keep the stored value.';
  const meta = [
    `<dt>ID</dt><dd>${escapeHtml(target.id)}</dd>`,
    `<dt>Kind</dt><dd>${escapeHtml(target.kind)}</dd>`,
    ...(target.label !== undefined ? [`<dt>Label</dt><dd>${escapeHtml(target.label)}</dd>`] : []),
    ...(target.description !== undefined ? [`<dt>Description</dt><dd>${escapeHtml(target.description)}</dd>`] : []),
  ].join('');
  const body = `<section id="form-view">
<h1>${verb} secret <code>${escapeHtml(target.id)}</code></h1>
<p class="lead">${lead}</p>
<dl>${meta}</dl>
<form id="setup-form" method="post" action="/secrets/setup?capability=${escapeHtml(capability)}" autocomplete="off" novalidate>
${formFields(target.kind)
  .map((f) => fieldHtml(f, target))
  .join('\n')}
<button type="submit" id="save">Save</button>
<p id="status" role="status" aria-live="polite"></p>
</form>
<p class="note">This link works once and expires ten minutes after it was created.</p>
</section>
${doneView(target, undefined, true)}`;
  return page(`${verb} secret ${target.id} \u2013 ah`, nonce, body, FORM_SCRIPT);
}

/** The confirmation for a plain (script-less) form post. */
export function renderSuccess(target: SetupTarget, secret: SecretMetadata, nonce: string): string {
  const script = `(function () { ${CLOSE_TAB} document.getElementById('close').addEventListener('click', closeTab); })();`;
  return page(`Secret ${secret.id} saved \u2013 ah`, nonce, doneView(target, secret, false), script);
}

export function renderError(code: string, message: string, nonce: string): string {
  const link = code === 'VAULT_SETUP_CAPABILITY_INVALID';
  const next = link
    ? 'For a fresh link run <code>ah secrets add &lt;id&gt; --open</code> or <code>ah secrets edit &lt;id&gt; --open</code>.'
    : 'Go back to correct the form; your browser keeps what you typed.';
  const body = `<h1 class="error">${link ? 'Setup link rejected' : 'The secret was not saved'}</h1>
<p class="lead">${escapeHtml(sentence(message))}</p>
<p><code>${escapeHtml(code)}</code></p>
<p class="note">Nothing was saved by this request. ${next}</p>`;
  return page('Secret setup \u2013 ah', nonce, body, '');
}
