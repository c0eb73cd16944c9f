// `npm run bench`: every benchmark in one run; writes bench/results/*.json and bench/results/report.md.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './lib.mjs';

const only = process.argv.slice(2);
const sections = [];
for (const name of ['startup', 'search', 'symbols', 'mcp-stdio', 'mcp-http', 'http', 'postgres', 'fuzz', 'soak']) {
  if (only.length > 0 && !only.includes(name)) continue;
  process.stderr.write(`== ${name}\n`);
  const mod = await import(`./${name}.mjs`);
  sections.push(await mod.run());
}
const report = `${sections.join('\n\n')}\n`;
writeFileSync(join(ROOT, 'bench', 'results', 'report.md'), report);
process.stdout.write(report);
