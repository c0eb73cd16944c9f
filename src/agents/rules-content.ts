/**
 * The guidance text inside the rules block, rendered at install time from the live catalog so the
 * list of domains matches what this ah serves. The same text goes to every target: files shared
 * by several agents (AGENTS.md) then hold one identical block whoever wrote it.
 */
import type { CatalogView } from '../catalog/descriptor.js';

export function rulesBody(catalog: CatalogView): string {
  const domains = catalog.domains
    .filter((d) => catalog.isEnabled(d.domain))
    .map((d) => `- \`${d.domain}\`: ${d.description.replace(/\s+/g, ' ').trim()}`);
  return [
    '## AIHelper (`ah`)',
    '',
    'This machine has AIHelper: the same typed commands are available as MCP tools named `ah.*`',
    '(server `aihelper`) and as the `ah` command line. Both run one catalog, so they behave alike.',
    '',
    'Manual: `ah ai info --json` (or the `ah.ai.info` tool) is the authoritative, current reference;',
    'pass `--domain NAME` (`domain` over MCP) to read one domain. Host commands (`mcp`, `secrets`,',
    '`ai install`) appear only in the unfiltered manual.',
    '',
    'Enabled domains:',
    ...domains,
    '',
    'How to use it:',
    '- Prefer an `ah` command over an improvised shell pipeline when one fits; on the CLI add `--json`.',
    '- Take parameter names and types from the tool schemas; do not guess parameters that are not there.',
    '- Over MCP, always pass an absolute `context.cwd`; `context` accepts only `cwd`, `limit` and `timeout_ms`.',
    '- For long work, start a job with `ah.job.start` and follow it with `ah.job.status` / `ah.job.result` (`ah.job.cancel` stops it).',
    '- Paths must exist: check with `ah.file.stat` or find them with `ah.search.files` before acting on them.',
    '- Credentials are referred to by id only: list them with `ah.secrets.list`; if one is missing, ask the',
    '  user to add it (`ah secrets add`); never ask for or handle secret values yourself.',
    '- An HTTP 401 or 403 from a service means a missing credential or scope: report it, do not retry.',
    '- Do not start or stop the MCP server yourself; the user manages it (`ah mcp service status|start|restart`).',
    '',
    'Re-run `ah ai install` to refresh this block after enabling or disabling domains.',
  ].join('\n');
}

/** Cursor applies a `.mdc` rule on its own only with `alwaysApply: true` (otherwise it is manual-only). */
export const CURSOR_FRONTMATTER = ['---', 'description: AIHelper (ah) tools and how to use them', 'alwaysApply: true', '---', ''].join(
  '\n',
);
