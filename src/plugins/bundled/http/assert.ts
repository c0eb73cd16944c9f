import { assertCommand } from './assert-shared.js';

export const assert = assertCommand(
  'http.assert',
  'Run an HTTP API spec',
  'Run the cases of an API test spec (YAML or JSON, version 1: defaults, vars, {{var}} interpolation, cases with request, expect and extract) in order against real servers. Values extracted from a passing case feed later cases and never appear in any report. Any failed case fails the call with HTTP_ASSERTION_FAILED. --report text|json|junit picks the CLI report.',
);
