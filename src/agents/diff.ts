/**
 * A small line diff for dry-run output. Our edits touch one region of a file, so the common head
 * and tail are cut away and the middle is shown as removed and added lines. No context lines: the
 * neighbours of our entry are other servers' settings (tokens in `env` among them), never echoed.
 */

export function lineDiff(before: string, after: string): string[] {
  const a = before === '' ? [] : before.replace(/\r?\n$/, '').split(/\r?\n/);
  const b = after === '' ? [] : after.replace(/\r?\n$/, '').split(/\r?\n/);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  if (head === a.length && head === b.length) return [];
  const lines: string[] = [];
  lines.push(`@@ line ${head + 1} @@`);
  for (let i = head; i < a.length - tail; i++) lines.push(`-${a[i]}`);
  for (let i = head; i < b.length - tail; i++) lines.push(`+${b[i]}`);
  return lines;
}
