/** JUnit XML for CI systems: one <testsuite> per spec, one <testcase> per case run. */
import type { AssertOutput } from './assert-output.js';

/** The characters XML 1.0 allows (tab, newline, carriage return and the non-surrogate planes). */
function xmlChar(cp: number): boolean {
  return cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || cp >= 0x10000;
}

/** Escapes text for XML and drops characters XML 1.0 cannot hold. */
export function xmlEscape(text: string): string {
  return Array.from(text, (ch) => (xmlChar(ch.codePointAt(0) as number) ? ch : '\ufffd'))
    .join('')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const secs = (ms: number) => (ms / 1000).toFixed(3);

export function junitXml(o: AssertOutput): string {
  const suite = xmlEscape(o.spec_path);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="ah http assert" tests="${o.summary.total}" failures="${o.summary.failed}" errors="0" time="${secs(o.summary.duration_ms)}">`,
    `  <testsuite name="${suite}" tests="${o.summary.total}" failures="${o.summary.failed}" errors="0" skipped="0" time="${secs(o.summary.duration_ms)}">`,
  ];
  for (const c of o.cases) {
    const open = `    <testcase name="${xmlEscape(c.name)}" classname="${suite}" time="${secs(c.duration_ms)}"`;
    if (c.passed) {
      lines.push(`${open}/>`);
      continue;
    }
    const first = c.failures[0] ?? 'failed';
    lines.push(`${open}>`);
    lines.push(`      <failure message="${xmlEscape(first)}" type="HTTP_ASSERTION_FAILED">${xmlEscape(c.failures.join('\n'))}</failure>`);
    lines.push('    </testcase>');
  }
  lines.push('  </testsuite>', '</testsuites>');
  return lines.join('\n');
}
