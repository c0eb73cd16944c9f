/** Help text for root, domain and command, generated from the catalog (nothing kept by hand). */
import type { CommandDescriptor, DomainInfo } from '../../catalog/descriptor.js';
import type { JsonSchema } from '../../catalog/schema.js';
import { argvForExample, kebab, properties, usageFor } from '../../catalog/usage.js';
import { GLOBAL_OPTIONS } from '../../catalog/global-options.js';
import { paint, type Style } from './render.js';
import { shellQuote } from '../../platform/text.js';

type HelpCommand = Pick<CommandDescriptor, 'id' | 'title' | 'description' | 'inputSchema' | 'cli' | 'credentialSlots' | 'examples'> & {
  risk?: string;
};

function table(rows: ReadonlyArray<[string, string]>, indent = '  '): string {
  const width = Math.min(32, Math.max(0, ...rows.map(([a]) => a.length)));
  return rows.map(([a, b]) => `${indent}${a.padEnd(width)}  ${b}`.trimEnd()).join('\n');
}

function summary(description: string): string {
  const firstLine = description.split('\n')[0] ?? '';
  const sentence = firstLine.match(/^.*?[.!?](\s|$)/)?.[0] ?? firstLine;
  return sentence.trim();
}

export function rootHelp(domains: readonly DomainInfo[], version: string, style: Style): string {
  const rows = [...domains]
    .sort((a, b) => a.domain.localeCompare(b.domain))
    .map((d) => [d.domain, summary(d.description)] as [string, string]);
  return [
    `${paint.bold(style, 'ah')} ${version} — a typed command toolbox for AI agents and developers.`,
    '',
    `${paint.bold(style, 'Usage:')} ah [global options] <domain> <command> [options]`,
    '',
    paint.bold(style, 'Domains:'),
    table(rows),
    '',
    paint.bold(style, 'Global options:'),
    table(GLOBAL_OPTIONS.map((o) => [o.flag, o.description])),
    '',
    "Run 'ah <domain> --help' for a domain's commands, 'ah <domain> <command> --help' for one command.",
  ].join('\n');
}

export function domainHelp(info: DomainInfo, commands: readonly HelpCommand[], enabled: boolean, style: Style): string {
  const rows = commands.map((c) => [c.id.slice(info.domain.length + 1).replaceAll('.', ' '), summary(c.description)] as [string, string]);
  return [
    `${paint.bold(style, `ah ${info.domain}`)} — ${info.description}${enabled ? '' : ' (disabled)'}`,
    '',
    `${paint.bold(style, 'Usage:')} ah ${info.domain} <command> [options]`,
    '',
    paint.bold(style, 'Commands:'),
    table(rows),
    '',
    `Run 'ah ${info.domain} <command> --help' for details.`,
  ].join('\n');
}

function describeOption(name: string, prop: JsonSchema, required: boolean): string {
  const parts: string[] = [];
  if (typeof prop.description === 'string') parts.push(prop.description);
  if (Array.isArray(prop.enum)) parts.push(`one of: ${prop.enum.join(', ')}`);
  if (prop.default !== undefined && !(Array.isArray(prop.default) && prop.default.length === 0) && prop.default !== false) {
    parts.push(`default: ${JSON.stringify(prop.default)}`);
  }
  if (required) parts.push('required');
  return parts.join('; ') || name;
}

export function commandHelp(command: HelpCommand, style: Style): string {
  const { props, required } = properties(command);
  const hints = command.cli ?? {};
  const positional = new Set([...(hints.positionals ?? []), ...(hints.rest ? [hints.rest] : [])]);
  const shortFor = new Map(Object.entries(hints.short ?? {}).map(([letter, field]) => [field, letter]));
  const aliasFor = new Map(Object.entries(hints.aliases ?? {}).map(([alias, field]) => [field, alias]));
  const argRows: [string, string][] = [...positional].map((name) => [
    `<${name}>${hints.rest === name || props[name]?.type === 'array' ? '...' : ''}`,
    describeOption(name, props[name] ?? {}, required.has(name)),
  ]);
  const optionRows: [string, string][] = Object.entries(props)
    .filter(([name]) => !positional.has(name))
    .map(([name, prop]) => {
      const short = shortFor.get(name);
      const long = `--${aliasFor.get(name) ?? kebab(name)}`;
      const isSwitch = prop.type === 'boolean' || prop.const === true;
      const value = isSwitch ? '' : ` <${prop.type === 'integer' ? 'N' : 'value'}>`;
      return [
        `${short ? `-${short}, ` : ''}${long}${value}${prop.type === 'array' ? ' (repeatable)' : ''}`,
        describeOption(name, prop, required.has(name)),
      ];
    });
  for (const slot of command.credentialSlots ?? []) {
    optionRows.push([
      `--credential ${slot.name}=ID`,
      `${slot.description} Vault record id of kind ${slot.acceptedKinds.join(' or ')}${slot.required ? '; required' : ''} (see 'ah secrets list --kind ${slot.acceptedKinds[0] ?? ''}')`,
    ]);
  }
  const sections = [
    `${paint.bold(style, command.title)} — ${command.description}`,
    '',
    `${paint.bold(style, 'Usage:')} ${usageFor(command)}`,
  ];
  if (argRows.length > 0) sections.push('', paint.bold(style, 'Arguments:'), table(argRows));
  if (optionRows.length > 0) sections.push('', paint.bold(style, 'Options:'), table(optionRows));
  sections.push('', paint.bold(style, 'Global options:'), table(GLOBAL_OPTIONS.map((o) => [o.flag, o.description])));
  if (command.examples.length > 0) {
    sections.push('', paint.bold(style, 'Examples:'));
    for (const example of command.examples) {
      sections.push(`  # ${example.description}`, `  ${argvForExample(command, example.arguments).map(shellQuote).join(' ')}`);
    }
  }
  if (command.risk) sections.push('', command.risk);
  return sections.join('\n');
}
