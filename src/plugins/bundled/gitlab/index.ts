/**
 * The gitlab plugin: ships with ah, loads through the plugin contract (plugins/bundled/index.ts).
 * Token order, host binding and the cleartext rule live in ../forge/token.ts.
 */
import type { DomainModule } from '../../../catalog/descriptor.js';
import { issueClose } from './issue-close.js';
import { issueComment } from './issue-comment.js';
import { issueComments } from './issue-comments.js';
import { issueCreate } from './issue-create.js';
import { issueUpdate } from './issue-update.js';
import { issueView } from './issue-view.js';
import { issues } from './issues.js';
import { jobTrace } from './job-trace.js';
import { jobWarnings } from './job-warnings.js';
import { pipelineGet } from './pipeline-get.js';
import { pipelineJobs } from './pipeline-jobs.js';
import { pipelineWait } from './pipeline-wait.js';
import { pipelines } from './pipelines.js';
import { project } from './project.js';
import { releaseCreate } from './release-create.js';
import { releaseGet } from './release-get.js';
import { releases } from './releases.js';

const gitlab: DomainModule = {
  domain: 'gitlab',
  pluginName: 'ah-plugin-gitlab',
  description: 'GitLab projects, issues, releases, pipelines and job logs through the REST API (gitlab.com or self-managed).',
  notes: [
    'Token order: credentials.token (a gitlab-token secret), --token (CLI only), GITLAB_TOKEN, GL_TOKEN, then git credential fill.',
    'Tokens from the environment or git go only to gitlab.com, the remote repository host or loopback; never over cleartext HTTP.',
  ],
  commands: [
    project,
    releases,
    releaseGet,
    releaseCreate,
    issues,
    issueView,
    issueCreate,
    issueUpdate,
    issueClose,
    issueComment,
    issueComments,
    pipelines,
    pipelineGet,
    pipelineJobs,
    pipelineWait,
    jobTrace,
    jobWarnings,
  ],
};

export default gitlab;
