import { afterEach, describe, expect, it, vi } from 'vitest';

const realStdout = Object.getOwnPropertyDescriptor(process, 'stdout') as PropertyDescriptor;

afterEach(() => {
  Object.defineProperty(process, 'stdout', realStdout);
  vi.restoreAllMocks();
});

/** Records stderr writes in `written` instead of printing them. */
function captureStderr(written: string[]): void {
  vi.spyOn(process.stderr, 'write').mockImplementation(((chunk: string) => {
    written.push(`err:${chunk}`);
    return true;
  }) as typeof process.stderr.write);
}

/** A lazy `process.stdout` like Node's: a configurable getter that counts how often it is asked. */
function lazyStdout(written: string[]) {
  const stream = {
    write: (chunk: string) => {
      written.push(`out:${chunk}`);
      return true;
    },
  };
  const asked = { count: 0 };
  Object.defineProperty(process, 'stdout', {
    configurable: true,
    enumerable: true,
    get() {
      asked.count += 1;
      return stream;
    },
  });
  return { stream, asked };
}

describe('withStdoutOnStderr', () => {
  it('does not make process.stdout when nothing writes to it, and redirects what is written', async () => {
    const written: string[] = [];
    captureStderr(written);
    const { stream, asked } = lazyStdout(written);
    vi.resetModules();
    const { withStdoutOnStderr } = await import('./stdout-owner.js');

    expect(await withStdoutOnStderr(async () => 'value')).toBe('value');
    expect(asked.count).toBe(0);

    // Made inside a window: patched as it is made.
    await withStdoutOnStderr(async () => {
      process.stdout.write('inside');
    });
    process.stdout.write('after');
    // Held from before a window (a bound console does this): patched when the window opens.
    await withStdoutOnStderr(async () => {
      stream.write('held');
    });
    stream.write('held after');
    // Overlapping windows: stdout comes back only when the last one ends.
    let release: () => void = () => undefined;
    const longer = withStdoutOnStderr(() => new Promise<void>((resolve) => (release = resolve)));
    await withStdoutOnStderr(async () => undefined);
    stream.write('while the longer one runs');
    release();
    await longer;
    stream.write('last');
    expect(written).toEqual(['err:inside', 'out:after', 'err:held', 'out:held after', 'err:while the longer one runs', 'out:last']);
  });

  it('gives stdout back when the function throws', async () => {
    const written: string[] = [];
    captureStderr(written);
    lazyStdout(written);
    vi.resetModules();
    const { withStdoutOnStderr } = await import('./stdout-owner.js');
    await expect(
      withStdoutOnStderr(async () => {
        process.stdout.write('before the throw');
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    process.stdout.write('after');
    expect(written).toEqual(['err:before the throw', 'out:after']);
  });
});
