import { assertCommand } from './assert-shared.js';

export const run = assertCommand(
  'http.run',
  'Run an HTTP API spec (alias of assert)',
  'Another name for http.assert: run the cases of an API test spec (YAML or JSON, version 1) in order; any failed case fails the call with HTTP_ASSERTION_FAILED.',
);
