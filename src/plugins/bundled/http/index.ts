/** The `http` plugin: one-off requests, curl replay and API specs over one transport. */
import type { DomainModule } from '../../../catalog/descriptor.js';
import { assert } from './assert.js';
import { del } from './delete.js';
import { get } from './get.js';
import { patch } from './patch.js';
import { post } from './post.js';
import { put } from './put.js';
import { replay } from './replay.js';
import { request } from './request.js';
import { run } from './run.js';

export const httpPlugin: DomainModule = {
  domain: 'http',
  pluginName: 'ah-http',
  description:
    'HTTP requests for probing APIs (any method, auth, bodies, expectations, retries), curl replay and API test specs with JUnit reports.',
  notes: ['Certificates are always verified; there is no option to skip TLS checks.'],
  commands: [request, get, post, put, patch, del, replay, assert, run],
};

export default httpPlugin;
