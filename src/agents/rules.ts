/** Plans the rules-block half of install and uninstall for one instructions file. */
import { readText } from './json-site.js';
import { findBlock, stripBlock, upsertBlock } from './rules-block.js';
import { CURSOR_FRONTMATTER } from './rules-content.js';
import type { FileStep } from './steps.js';
import type { RulesFile } from './target.js';
import type { Action } from './types.js';

const FRONTMATTER = /^---\r?\n[\s\S]*?\r?\n---\r?\n/;

/** `ah.mdc` is ours: our frontmatter (Cursor needs `alwaysApply: true`), then the block. */
function cursorText(text: string | null, body: string, path: string): string {
  const match = text === null ? null : FRONTMATTER.exec(text);
  const rest = match ? (text as string).slice(match[0].length) : (text ?? '');
  const front = match && /^alwaysApply:\s*true\s*$/m.test(match[0]) ? match[0] : CURSOR_FRONTMATTER;
  return `${front}\n${upsertBlock(rest.replace(/^(\r?\n)+/, ''), body, path)}`;
}

/** What is left after the block goes: null (delete the file) when nothing of the user's remains. */
function stripped(file: RulesFile, text: string): string | null {
  const rest = stripBlock(text, file.path);
  const userPart = file.cursor ? rest.replace(FRONTMATTER, '') : rest;
  return userPart.trim() === '' ? null : rest;
}

export interface RulesPlan {
  action: Action;
  steps: FileStep[];
}

export async function planRulesInstall(file: RulesFile, body: string): Promise<RulesPlan> {
  const text = await readText(file.path);
  const edit = (current: string | null) => (file.cursor ? cursorText(current, body, file.path) : upsertBlock(current, body, file.path));
  const after = edit(text);
  if (after === text) return { action: 'unchanged', steps: [] };
  const had = text !== null && findBlock(text, file.path) !== null;
  return { action: had ? 'updated' : 'installed', steps: [{ kind: 'file', path: file.path, before: text, after, edit }] };
}

export async function planRulesUninstall(file: RulesFile): Promise<RulesPlan> {
  const text = await readText(file.path);
  if (text === null || findBlock(text, file.path) === null) return { action: 'not_present', steps: [] };
  const edit = (current: string | null) => (current === null ? null : stripped(file, current));
  return { action: 'removed', steps: [{ kind: 'file', path: file.path, before: text, after: edit(text), edit }] };
}

/** Read-only: whether the block is there. */
export async function rulesState(file: RulesFile): Promise<Action> {
  const text = await readText(file.path);
  return text !== null && findBlock(text, file.path) !== null ? 'installed' : 'not_present';
}
