/** Inputs shared by several gitlab commands. */
import { Type } from '../../../catalog/schema.js';

export const IID = Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1, description: 'Issue number within the project (iid)' });
export const ID = (what: string) => Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: what });
export const LABELS = (what: string) => Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 50, description: what });
export const ASSIGNEE_IDS = Type.Array(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }), {
  maxItems: 50,
  description: 'Assignee user ids',
});
