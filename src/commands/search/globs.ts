/** Include/exclude globs of search text (picomatch), with ripgrep's rule for slash-free globs. */
import picomatch from 'picomatch';
import { AhError } from '../../errors.js';

/** Compiles include/exclude globs (a leading `!` excludes); paths are relative to each root. */
export function compileGlobs(globs: readonly string[]): ((path: string) => boolean) | undefined {
  if (globs.length === 0) return undefined;
  const include: picomatch.Matcher[] = [];
  const exclude: picomatch.Matcher[] = [];
  for (const glob of globs) {
    const negated = glob.startsWith('!');
    const pattern = negated ? glob.slice(1) : glob;
    if (pattern === '' || /\[[^\]]*$/.test(pattern)) {
      throw new AhError({
        code: 'GLOB_INVALID',
        message: `invalid glob '${glob}'`,
        hint: 'Use patterns like *.ts, src/**, or !**/*.test.ts.',
      });
    }
    let matcher: picomatch.Matcher;
    try {
      // A glob without a slash matches the file name anywhere, as in ripgrep.
      matcher = picomatch(pattern, { dot: true, basename: !pattern.includes('/'), strictBrackets: true });
    } catch (error) {
      throw new AhError({ code: 'GLOB_INVALID', message: `invalid glob '${glob}'`, cause: (error as Error).message });
    }
    (negated ? exclude : include).push(matcher);
  }
  return (path) => (include.length === 0 || include.some((m) => m(path))) && !exclude.some((m) => m(path));
}
