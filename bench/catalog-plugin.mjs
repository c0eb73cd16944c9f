// A bench-only external plugin that makes ah's catalog bigger with commands of real size: copies
// of the shipped commands (their titles, descriptions, schemas and effects) under the `bench`
// domain. It measures how tools/list scales with the number of tools; it is never shipped.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The published tools of a plain `ah mcp serve` (written next to this file by bench/mcp-stdio.mjs). */
const tools = JSON.parse(readFileSync(join(import.meta.dirname, 'bench-tools.json'), 'utf8'));

const copies = tools
  .filter((tool) => !tool.name.startsWith('ah.job.'))
  .map((tool) => {
    const { context: _context, ...properties } = tool.inputSchema.properties ?? {};
    const risk = tool._meta['dev.aihelper/risk'];
    return {
      id: `bench.${tool.name.slice(3).replaceAll('.', '-')}`,
      title: tool.title,
      description: tool.description.split('\n\n')[0],
      inputSchema: { ...tool.inputSchema, properties },
      outputSchema: tool.outputSchema,
      effects: {
        readOnly: tool.annotations.readOnlyHint,
        destructive: tool.annotations.destructiveHint,
        idempotent: tool.annotations.idempotentHint,
        openWorld: tool.annotations.openWorldHint,
        effects: risk.effects,
        risk: risk.level,
        impact: risk.impact,
        reversibility: risk.reversibility,
      },
      examples: [],
      stateless: true,
      run: async () => {
        throw new Error('bench copies are listed, never called');
      },
    };
  });

export default {
  domain: 'bench',
  pluginName: 'ah-bench-catalog',
  description: 'Bench only: copies of the shipped commands, to list a bigger catalog.',
  commands: copies,
};
