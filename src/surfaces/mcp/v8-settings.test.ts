import { describe, expect, it } from 'vitest';
import { serverV8Flags } from './v8-settings.js';

const NODE_20_V8 = '11.3.244.8-node.33';

describe('serverV8Flags', () => {
  it('sets the heap, pretenuring and interrupt-budget flags by default', () => {
    expect(serverV8Flags({}, [], NODE_20_V8)).toEqual([
      '--heap-growing-percent=100',
      '--no-allocation-site-pretenuring',
      '--interrupt-budget=8192',
    ]);
  });

  it("keeps the user's own setting, from execArgv or NODE_OPTIONS", () => {
    expect(serverV8Flags({}, ['--interrupt-budget=100000'], NODE_20_V8)).toEqual([
      '--heap-growing-percent=100',
      '--no-allocation-site-pretenuring',
    ]);
    expect(serverV8Flags({ NODE_OPTIONS: '--heap-growing-percent=50 --allocation-site-pretenuring' }, [], NODE_20_V8)).toEqual([
      '--interrupt-budget=8192',
    ]);
  });

  it('leaves the interrupt budget alone on V8 12 and later (Node 22+), which dropped the flag', () => {
    expect(serverV8Flags({}, [], '12.4.254.21-node.33')).toEqual(['--heap-growing-percent=100', '--no-allocation-site-pretenuring']);
  });

  it('sets nothing in the build’s code-cache run, whose cache must match default flags', () => {
    expect(serverV8Flags({ AH_BUILD_CODE_CACHE: '1' }, [])).toEqual([]);
  });
});
