/**
 * The `postgres` domain, a plugin bundled with ah: a module exactly like an external plugin
 * (default export: a DomainModule), loaded through the same contract checks. Descriptors only
 * here; each command imports the driver (`pg`, from node_modules, outside the bundle) when it runs.
 */
import type { DomainModule } from '../../../catalog/descriptor.js';
import { activity } from './activity.js';
import { databases } from './databases.js';
import { describe } from './describe.js';
import { exec } from './exec.js';
import { explain } from './explain.js';
import { extensions } from './extensions.js';
import { indexes } from './indexes.js';
import { info } from './info.js';
import { CONNECTION_NOTE } from './inputs.js';
import { locks } from './locks.js';
import { ping } from './ping.js';
import { query } from './query.js';
import { tables, views } from './relations.js';
import { schemas } from './schemas.js';
import { settings } from './settings.js';
import { size } from './size.js';
import { tool } from './tool.js';

const postgresDomain: DomainModule = {
  domain: 'postgres',
  pluginName: 'ah-plugin-postgres',
  description:
    'Inspect and query PostgreSQL over its own protocol (no psql needed): server, catalog, activity, read-only queries, confirmed writes.',
  notes: [
    CONNECTION_NOTE,
    'query runs in a READ ONLY transaction enforced by the server; exec needs yes: true; explain with analyze needs yes and is rolled back.',
    "There is no psql to manage: 'postgres tool …' answers POSTGRES_TOOL_NOT_NEEDED.",
    'A password never appears in arguments, logs, errors or output; over MCP pass credentials.database (a postgres vault record id).',
  ],
  commands: [
    ping,
    info,
    databases,
    schemas,
    tables,
    views,
    describe,
    indexes,
    extensions,
    query,
    exec,
    explain,
    activity,
    locks,
    size,
    settings,
    tool,
  ],
};

export default postgresDomain;
