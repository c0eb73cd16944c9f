/**
 * Option validators for the host CLI commands (`ah mcp serve`, …), compiled ahead of time. The
 * build (scripts/build.mjs) replaces this module with Ajv standalone code generated from
 * HOST_CLI_COMMANDS with the run-time options (AJV_OPTIONS and formats), so the bundled CLI checks
 * its options without loading Ajv. From source nothing is precompiled: callers compile at run time.
 */
import type { Validator } from '../../catalog/schema.js';

export const PRECOMPILED_HOST_VALIDATORS: Readonly<Record<string, Validator>> | undefined = undefined;
