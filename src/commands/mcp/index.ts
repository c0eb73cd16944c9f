/**
 * The `mcp` host domain. Its only command, `mcp serve`, is CLI-only (it would recursively start a
 * server if published as a tool), so the typed catalog holds no commands for it.
 */
import type { DomainModule } from '../../catalog/descriptor.js';

export const mcpDomain: DomainModule = {
  domain: 'mcp',
  pluginName: 'ah-mcp',
  description: 'Serve the command catalog over the Model Context Protocol (stdio or local HTTP).',
  host: true,
  notes: ["'ah mcp serve' is a CLI-only host command and is never published as an MCP tool."],
  commands: [],
};
