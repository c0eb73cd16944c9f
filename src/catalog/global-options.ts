/** The CLI's global options, documented once for CLI help and `ai info`. */
export const GLOBAL_OPTIONS: ReadonlyArray<{ flag: string; description: string }> = [
  { flag: '--cwd PATH', description: 'Working directory for the invocation; relative paths resolve against it.' },
  { flag: '--limit N', description: 'Cap returned lines or items where supported (N >= 1).' },
  { flag: '--json', description: 'Print exactly the structured result as JSON; errors become a JSON diagnostic on stderr.' },
  { flag: '--quiet', description: 'Suppress successful output.' },
  { flag: '-V, --version', description: 'Print the version.' },
  { flag: '-h, --help', description: 'Help for ah, a domain or a command.' },
];
