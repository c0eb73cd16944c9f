/**
 * Validators compiled ahead of time. The build (scripts/build.mjs) replaces this module with a map
 * from `schemaKey` of every built-in schema's JSON text (command inputs and outputs, host command
 * options, job tools) to a small Ajv standalone file in dist/validators/, generated with the
 * run-time options and loaded on first use. The bundled CLI and server then validate without
 * loading Ajv; a schema that is not in the map (an external plugin's, or any schema when running
 * from source) is compiled at run time.
 */
import type { Validator } from './schema-key.js';

export const PRECOMPILED_VALIDATORS: { get(key: string): Validator | undefined } | undefined = undefined;
