// Bursts of sign-in attempts against a running app, as an attacker (or a crowd) sends them: each from a
// new browser of its own (its own XSRF cookie), counted by answer.
import type { Clock } from '#identity';
import { ManualClock } from '#identity';
import { AppClock } from '#api';
import type { AuthApp } from './auth-app.js';
import type { Answer } from './browser.js';

/** A new browser: the login page (its XSRF cookie), then POST /login. */
export async function signInAttempt(
  node: AuthApp,
  username: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const browser = node.browser();
  await browser.open('/login');
  return browser.post('/login', { username, password }, { headers });
}

/** How many answers had each status: `{ 401: 10, 429: 190 }`. */
export const statusCounts = (answers: readonly Answer[]): Record<number, number> =>
  answers.reduce<Record<number, number>>(
    (counts, answer) => ({ ...counts, [answer.status]: (counts[answer.status] ?? 0) + 1 }),
    {},
  );

/**
 * One clock for the nodes of a burst test whose sleeps take no time (a ManualClock's would add up and end locks
 * mid-burst); idle connections stay open a minute, so a reused socket is never closed under the client.
 */
export function burstClock(...nodes: AuthApp[]): ManualClock {
  const time = new ManualClock(new Date());
  const clock: Clock = { now: () => time.now(), sleep: async () => undefined };
  for (const node of nodes) {
    node.app.get(AppClock).pin(clock);
    node.app.getHttpServer().keepAliveTimeout = 60_000;
  }
  return time;
}
