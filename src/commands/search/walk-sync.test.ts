import { describe, expect, it } from 'vitest';
import { walkExcludesSetting } from './walk-sync.js';

describe('walkExcludesSetting', () => {
  it('reads the last core.excludesFile, unquoted, and nothing from other sections', () => {
    expect(walkExcludesSetting('[core]\n\texcludesFile = ~/one\n[user]\n\texcludesfile = /no\n[core]\n  ExcludesFile = "/two x"\n')).toBe(
      '/two x',
    );
    expect(walkExcludesSetting('[user]\n\tname = me\n')).toBeNull();
  });
});
