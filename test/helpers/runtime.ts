/** A runtime core over a small test catalog, for executor and job tests. */
import { defineCommand, type DomainModule } from '../../src/catalog/descriptor.js';
import { defineCatalog } from '../../src/catalog/registry.js';
import { RootObject, Type } from '../../src/catalog/schema.js';
import type { CommandCompletedInput, EventLog } from '../../src/logging/types.js';
import { type PreparedCall, prepare as prepareCall, type RuntimeCore } from '../../src/runtime/invoke.js';
import { LiveCatalog } from '../../src/runtime/live-catalog.js';
import { testVault } from './vault.js';

const effects = {
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  effects: [] as [],
  risk: 'low' as const,
  impact: 'Test only.',
  reversibility: 'yes' as const,
};

/** A gate: handlers wait on it until released. */
export class Gate {
  private release: () => void = () => undefined;
  readonly opened = new Promise<void>((r) => {
    this.release = r;
  });
  entered = 0;
  open(): void {
    this.release();
  }
}

export function testDomain(gate: Gate): DomainModule {
  return {
    domain: 'test',
    pluginName: 'ah-test',
    description: 'Test commands',
    commands: [
      defineCommand({
        id: 'test.gated',
        title: 'Gated',
        description: 'Waits for the gate, cooperating with cancellation.',
        inputSchema: RootObject({ tag: Type.String({ default: '' }) }),
        outputSchema: RootObject({ command: Type.Literal('test.gated'), tag: Type.String() }),
        effects,
        examples: [{ description: 'wait', arguments: {} }],
        run: async (input: { tag: string }, ctx) => {
          gate.entered += 1;
          await new Promise<void>((resolve, reject) => {
            void gate.opened.then(resolve);
            ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true });
          });
          return { command: 'test.gated', tag: input.tag };
        },
      }),
      defineCommand({
        id: 'test.stubborn',
        title: 'Stubborn',
        description: 'Ignores cancellation until the gate opens.',
        inputSchema: RootObject({}),
        outputSchema: RootObject({ command: Type.Literal('test.stubborn') }),
        effects,
        examples: [{ description: 'wait', arguments: {} }],
        run: async () => {
          gate.entered += 1;
          await gate.opened;
          return { command: 'test.stubborn' };
        },
      }),
      defineCommand({
        id: 'test.bad-output',
        title: 'Bad output',
        description: 'Returns data that breaks its own schema.',
        inputSchema: RootObject({}),
        outputSchema: RootObject({ command: Type.Literal('test.bad-output') }),
        effects,
        examples: [{ description: 'go', arguments: {} }],
        run: async () => ({ command: 'test.bad-output', extra: 1 }),
      }),
    ],
  };
}

export function memoryLog(): EventLog & { records: CommandCompletedInput[] } {
  const records: CommandCompletedInput[] = [];
  return { records, commandCompleted: (r) => records.push(r), system: () => undefined, flush: () => Promise.resolve() };
}

export function testRuntime(gate: Gate, settingsPath = '/nonexistent/plugins.json') {
  const catalog = new LiveCatalog(defineCatalog([testDomain(gate)]), [], settingsPath, testVault());
  const log = memoryLog();
  const core: RuntimeCore = { snapshot: () => catalog.snapshot(), host: catalog, log, env: {} };
  const prepare = (id: string, args: Record<string, unknown> = {}, timeoutMs: number | null = null): PreparedCall =>
    prepareCall(core, { commandId: id, arguments: args }, { defaults: { cwd: '/', limit: null, timeoutMs }, transport: 'mcp' });
  return { catalog, core, log, prepare };
}
