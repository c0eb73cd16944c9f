/**
 * The `secrets` host domain. Only `list` is a typed catalog command (and an MCP tool); init, add,
 * edit and remove are CLI-only because they create or change secret values, which never travel
 * through arguments or MCP.
 */
import type { DomainModule } from '../../catalog/descriptor.js';
import { list } from './list.js';

export const secretsDomain: DomainModule = {
  domain: 'secrets',
  pluginName: 'ah-secrets',
  description: 'The encrypted secrets vault: list record metadata; create and change records from the CLI.',
  host: true,
  notes: [
    "'ah secrets init|add|edit|remove' are CLI-only host commands: values are typed at hidden prompts or in the local browser setup page (--open), never passed as arguments.",
  ],
  commands: [list],
};
