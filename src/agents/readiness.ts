/** The http transport's courtesy check: is an ah server answering at the endpoint's origin? */
import { request } from 'node:http';
import { readinessUrl } from './url.js';

/** null when `<origin>/health/ready` answers 200; otherwise why not (the caller only warns). */
export function checkReadiness(mcpUrl: string, timeoutMs = 1500): Promise<string | null> {
  const target = new URL(readinessUrl(mcpUrl));
  return new Promise((resolve) => {
    const req = request(
      { host: target.hostname.replace(/^\[|\]$/g, ''), port: target.port || 80, path: target.pathname, method: 'GET', agent: false },
      (res) => {
        res.resume();
        resolve(res.statusCode === 200 ? null : `${target.href} answered HTTP ${res.statusCode}`);
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (error) => resolve(`nothing answered at ${target.href} (${(error as Error).message})`));
    req.end();
  });
}
