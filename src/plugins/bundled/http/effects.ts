/** Risk per method: GET only reads (medium, open world); every other method can change a remote system. */
import type { Effects } from '../../../catalog/effects.js';

export const READ_EFFECTS: Effects = {
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: true,
  effects: ['network_read', 'filesystem_read'],
  risk: 'medium',
  impact: 'Sends a GET request to the given URL; a well-behaved server changes nothing, but the request and its data leave this machine.',
  reversibility: 'yes',
};

export function writeEffects(what: string): Effects {
  return {
    readOnly: false,
    destructive: true,
    idempotent: false,
    openWorld: true,
    effects: ['network_read', 'network_write', 'filesystem_read'],
    risk: 'high',
    impact: `${what} The remote server may create, change or delete data, and retries may repeat the side effect.`,
    reversibility: 'unknown',
  };
}
