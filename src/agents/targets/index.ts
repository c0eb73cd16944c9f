/** Every supported agent, in the order `all` handles them. */
import type { TargetSpec } from '../target.js';
import type { TargetName } from '../types.js';
import { claude } from './claude.js';
import { codex } from './codex.js';
import { copilot } from './copilot.js';
import { copilotCli } from './copilot-cli.js';
import { cursor } from './cursor.js';
import { gemini } from './gemini.js';
import { opencode } from './opencode.js';

export const TARGET_SPECS: Readonly<Record<TargetName, TargetSpec>> = {
  claude,
  codex,
  gemini,
  cursor,
  copilot,
  'copilot-cli': copilotCli,
  opencode,
};
