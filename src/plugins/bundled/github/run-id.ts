/** The `run_id` input of the run.* commands. */
import { Type } from '../../../catalog/schema.js';

export const RUN_ID = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Workflow run id' });
