/** Checks of the MCP publication hints and content blocks a command declares (plugin contract). */
import type { McpToolHints } from './descriptor.js';

/** MCP tool-name rule; `ah.` names are the `ah.<id>` tools and cannot be claimed. */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';

export function mcpHintProblems(hints: unknown): string[] {
  if (hints === undefined) return [];
  if (!isObject(hints)) return ['mcp must be an object'];
  const h = hints as McpToolHints & Record<string, unknown>;
  const problems: string[] = [];
  if (h.name !== undefined) {
    if (!isString(h.name) || !TOOL_NAME.test(h.name)) problems.push('mcp.name must be 1-128 of A-Z a-z 0-9 _ - .');
    else if (h.name.startsWith('ah.')) problems.push("mcp.name cannot start with 'ah.' (reserved for ah.<id> tools)");
  }
  if (h.content !== undefined && typeof h.content !== 'function') problems.push('mcp.content must be a function');
  for (const key of Object.keys(h)) if (key !== 'name' && key !== 'content') problems.push(`mcp.${key} is not a known hint`);
  return problems;
}

/** The first problem with a list of content blocks, or undefined when every block is well formed. */
export function contentProblem(blocks: unknown): string | undefined {
  if (!Array.isArray(blocks) || blocks.length === 0) return 'content must be a non-empty list';
  for (const [i, block] of blocks.entries()) {
    const b = isObject(block) ? block : {};
    const ok =
      b.type === 'text'
        ? isString(b.text)
        : b.type === 'image' || b.type === 'audio'
          ? isString(b.data) && isString(b.mimeType)
          : b.type === 'resource'
            ? isObject(b.resource) && isString(b.resource.uri) && (isString(b.resource.text) || isString(b.resource.blob))
            : b.type === 'resource_link'
              ? isString(b.uri) && isString(b.name)
              : false;
    if (!ok) return `content block ${i} is not a valid text, image, audio, resource or resource_link block`;
  }
  return undefined;
}
