/**
 * One idempotent shutdown path for every trigger (stdin EOF, SIGINT, SIGTERM, parent death,
 * control request, fatal transport error): close admission, stop sessions, cancel active work,
 * then wait for everything within ONE shared budget.
 */
import { AhError } from '../../errors.js';
import type { EventLog } from '../../logging/types.js';
import type { Executor } from '../../runtime/executor.js';

export const SHUTDOWN_BUDGET_MS = 5000;

export interface ShutdownResult {
  code: 0 | 1;
  diagnostic?: { code: string; message: string };
}

type Closer = () => Promise<void> | void;

export class Lifecycle {
  private result: Promise<ShutdownResult> | undefined;
  private readonly closers: Closer[] = [];
  private fatal: AhError | undefined;
  private readonly done: Promise<ShutdownResult>;
  private resolveDone: (r: ShutdownResult) => void = () => undefined;

  constructor(
    private readonly executor: Executor,
    private readonly log: EventLog,
    private readonly budgetMs = SHUTDOWN_BUDGET_MS,
    private readonly onDiagnostic: (line: string) => void = () => undefined,
  ) {
    this.done = new Promise((r) => {
      this.resolveDone = r;
    });
  }

  get stopping(): boolean {
    return this.result !== undefined;
  }

  /** Registers something to close during shutdown (sessions, listeners, transports). */
  onShutdown(closer: Closer): void {
    this.closers.push(closer);
  }

  /** Resolves once shutdown has finished, with the exit code. */
  finished(): Promise<ShutdownResult> {
    return this.done;
  }

  /** An unexpected transport failure: shut down, then exit 1 with MCP_SERVER_FAILED. */
  fail(cause: unknown): Promise<ShutdownResult> {
    this.fatal ??= new AhError({
      code: 'MCP_SERVER_FAILED',
      message: 'the MCP server failed',
      cause: cause instanceof Error ? cause.message : String(cause),
      operation: 'mcp.serve',
    });
    return this.shutdown('failure');
  }

  shutdown(trigger: string): Promise<ShutdownResult> {
    this.result ??= this.run(trigger).then((r) => {
      this.resolveDone(r);
      return r;
    });
    return this.result;
  }

  private async run(trigger: string): Promise<ShutdownResult> {
    this.executor.close();
    this.executor.cancelAll(new AhError({ code: 'EXECUTION_CANCELLED', message: 'the server is shutting down', operation: 'execution' }));
    const work = Promise.all([
      ...this.closers.map(async (close) => {
        try {
          await close();
        } catch {
          // A session that fails to close is abandoned; the budget still applies.
        }
      }),
      this.executor.drained(),
    ]);
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'expired'>((r) => {
      timer = setTimeout(() => r('expired'), this.budgetMs);
    });
    const finished = await Promise.race([work.then(() => 'ok' as const), expired]);
    if (timer) clearTimeout(timer);
    if (this.fatal) return this.report(this.fatal, trigger);
    if (finished === 'expired') {
      return this.report(
        new AhError({
          code: 'MCP_SHUTDOWN_TIMEOUT',
          message: `shutdown did not finish within ${this.budgetMs} ms`,
          // With no handler left, what did not finish is the protocol's draining (answers owed to
          // the client, or a client that does not read them).
          cause:
            this.executor.active > 0
              ? `${this.executor.active} handler(s) still running after ${trigger}`
              : `answers to the client still unsent or unread after ${trigger}`,
          operation: 'mcp.serve',
        }),
        trigger,
      );
    }
    return { code: 0 };
  }

  private report(error: AhError, trigger: string): ShutdownResult {
    this.onDiagnostic(`ah: ${error.code}: ${error.message} (${error.detail})`);
    this.log.system({
      component: 'mcp_server',
      severity: 'error',
      diagnostic: { code: error.code, message: error.message, cause: error.detail, exit_code_hint: 1 },
      context: { trigger },
    });
    return { code: 1, diagnostic: { code: error.code, message: error.message } };
  }
}
