declare const __AH_VERSION__: string | undefined;

/** The package version, injected by the bundler (falls back for tests running from source). */
export const VERSION: string = typeof __AH_VERSION__ === 'string' ? __AH_VERSION__ : '0.0.0-dev';
