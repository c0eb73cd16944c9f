/**
 * The github plugin: ships with ah, loads through the plugin contract (plugins/bundled/index.ts).
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
import { releaseAssets } from './release-assets.js';
import { releaseCreate } from './release-create.js';
import { releaseGet } from './release-get.js';
import { repo } from './repo.js';
import { runArtifacts } from './run-artifacts.js';
import { runGet } from './run-get.js';
import { runJobs } from './run-jobs.js';
import { runLogs } from './run-logs.js';
import { runWait } from './run-wait.js';
import { runWarnings } from './run-warnings.js';
import { runs } from './runs.js';
import { workflowRun } from './workflow-run.js';
import { workflows } from './workflows.js';

const github: DomainModule = {
  domain: 'github',
  pluginName: 'ah-plugin-github',
  description: 'GitHub issues, releases and Actions runs through the REST API (token from a github-token secret, the environment or git).',
  notes: [
    'Token order: credentials.token (a github-token secret), --token (CLI only), GITHUB_TOKEN, GH_TOKEN, then git credential fill.',
    'Tokens from the environment or git go only to api.github.com, the remote repository host or loopback; never over cleartext HTTP.',
  ],
  commands: [
    repo,
    issues,
    issueView,
    issueCreate,
    issueUpdate,
    issueClose,
    issueComment,
    issueComments,
    releaseGet,
    releaseAssets,
    releaseCreate,
    workflows,
    workflowRun,
    runs,
    runGet,
    runJobs,
    runArtifacts,
    runWait,
    runLogs,
    runWarnings,
  ],
};

export default github;
