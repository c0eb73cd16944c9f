/**
 * The Task Scheduler 2.0 task for the managed server, rendered as task XML (for `schtasks /XML`)
 * and parsed back into semantic properties. Drift compares these properties with the
 * scheduler's documented defaults applied, never the exported XML text.
 */
import { endpointOf, managedEnvironment, type ServiceDefinition, serveArgs } from '../definition.js';

export const TASK_SOURCE = 'AIHelper';

export function taskName(sid: string): string {
  return `AIHelper Managed MCP - ${sid}`;
}

export function ownershipMarker(serviceId: string): string {
  return `[ah-service-id:${serviceId}]`;
}

const xmlEscape = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
const xmlUnescape = (s: string) =>
  s.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&apos;', "'").replaceAll('&amp;', '&');

/** Windows paths cannot contain `"`, so plain double quoting is enough for cmd.exe here. */
const q = (s: string) => `"${s}"`;

/**
 * The Exec action. Task actions cannot set environment variables, so cmd.exe sets them before it
 * starts node; conhost --headless keeps every console window hidden.
 */
function taskAction(definition: ServiceDefinition, stateDir: string, systemRoot: string): { command: string; arguments: string } {
  // The launcher (service/launcher.ts) owns the relaunch policy; Task Scheduler retries stay off.
  const environment: Array<[string, string]> = [
    ...managedEnvironment(definition, stateDir),
    ['AH_MANAGED_LAUNCHER', '1'],
    ['AH_MANAGED_RESTART_SEC', String(definition.restart_delay_sec)],
  ];
  const sets = environment.map(([k, v]) => `set ${q(`${k}=${v}`)}`);
  const run = [definition.node_path, definition.ah_path, ...serveArgs(definition)].map(q).join(' ');
  return {
    command: `${systemRoot}\\System32\\conhost.exe`,
    arguments: `--headless ${q(`${systemRoot}\\System32\\cmd.exe`)} /d /s /c "${[...sets, run].join(' && ')}"`,
  };
}

export function renderTaskXml(definition: ServiceDefinition, stateDir: string, sid: string, systemRoot: string): string {
  const action = taskAction(definition, stateDir, systemRoot);
  return [
    '<?xml version="1.0" encoding="UTF-16"?>',
    '<Task version="1.2" xmlns="http://schemas.microsoft.com/windows/2004/02/mit/task">',
    '  <RegistrationInfo>',
    `    <Source>${TASK_SOURCE}</Source>`,
    `    <Description>${xmlEscape(`AIHelper managed MCP server on ${endpointOf(definition)} ${ownershipMarker(definition.service_id)}`)}</Description>`,
    `    <URI>${xmlEscape(`\\${taskName(sid)}`)}</URI>`,
    '  </RegistrationInfo>',
    '  <Triggers>',
    `    <LogonTrigger><Enabled>true</Enabled><UserId>${sid}</UserId></LogonTrigger>`,
    '  </Triggers>',
    '  <Principals>',
    `    <Principal id="Author"><UserId>${sid}</UserId><LogonType>InteractiveToken</LogonType><RunLevel>LeastPrivilege</RunLevel></Principal>`,
    '  </Principals>',
    '  <Settings>',
    '    <MultipleInstancesPolicy>IgnoreNew</MultipleInstancesPolicy>',
    '    <DisallowStartIfOnBatteries>false</DisallowStartIfOnBatteries>',
    '    <StopIfGoingOnBatteries>false</StopIfGoingOnBatteries>',
    '    <ExecutionTimeLimit>PT0S</ExecutionTimeLimit>',
    '    <AllowStartOnDemand>true</AllowStartOnDemand>',
    '    <Enabled>true</Enabled>',
    '  </Settings>',
    '  <Actions Context="Author">',
    `    <Exec><Command>${xmlEscape(action.command)}</Command><Arguments>${xmlEscape(action.arguments)}</Arguments></Exec>`,
    '  </Actions>',
    '</Task>',
    '',
  ].join('\r\n');
}

function all(xml: string, tag: string): string[] {
  const re = new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, 'g');
  return [...xml.matchAll(re)].map((m) => xmlUnescape((m[1] ?? '').trim()));
}

function first(xml: string, tag: string): string | null {
  return all(xml, tag)[0] ?? null;
}

/** Element absent → the scheduler's default, so an equivalent task never counts as drift. */
function setting(xml: string, tag: string, fallback: string): string {
  return (first(xml, tag) ?? fallback).toLowerCase();
}

export function parseTaskXml(xml: string): Record<string, string> {
  const settings = first(xml, 'Settings') ?? '';
  const triggers = first(xml, 'Triggers') ?? '';
  const principal = first(xml, 'Principals') ?? '';
  const actions = first(xml, 'Actions') ?? '';
  const execs = all(actions, 'Exec');
  const description = first(xml, 'Description') ?? '';
  const marker = /\[ah-service-id:([^\]]+)\]/.exec(description)?.[1] ?? '';
  const triggerKinds = [...triggers.matchAll(/<(\w+Trigger)[\s>]/g)].map((m) => m[1]).join(',');
  return {
    'action.arguments': execs.length === 1 ? (first(execs[0] ?? '', 'Arguments') ?? '') : '',
    'action.command': execs.length === 1 ? (first(execs[0] ?? '', 'Command') ?? '') : '',
    'action.count': String((actions.match(/<(Exec|ComHandler|SendEmail|ShowMessage)[\s>]/g) ?? []).length),
    'owner.marker': marker,
    'principal.logon_type': (first(principal, 'LogonType') ?? 'InteractiveToken').toLowerCase(),
    'principal.run_level': (first(principal, 'RunLevel') ?? 'LeastPrivilege').toLowerCase(),
    'principal.user': (first(principal, 'UserId') ?? '').toUpperCase(),
    'registration.source': first(xml, 'Source') ?? '',
    'registration.uri': first(xml, 'URI') ?? '',
    'settings.disallow_start_on_batteries': setting(settings, 'DisallowStartIfOnBatteries', 'true'),
    'settings.enabled': setting(settings, 'Enabled', 'true'),
    'settings.execution_time_limit': setting(settings, 'ExecutionTimeLimit', 'PT72H'),
    'settings.multiple_instances': setting(settings, 'MultipleInstancesPolicy', 'IgnoreNew'),
    'settings.native_retries': first(settings, 'RestartOnFailure') === null ? 'off' : 'on',
    'settings.stop_on_batteries': setting(settings, 'StopIfGoingOnBatteries', 'true'),
    'trigger.kinds': triggerKinds,
    'trigger.user': (first(triggers, 'UserId') ?? '').toUpperCase(),
  };
}
