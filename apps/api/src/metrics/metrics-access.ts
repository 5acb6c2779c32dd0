// Who may read GET /metrics: its series describe traffic, sign-in failures and the store's health,
// which an outsider should not watch. With METRICS_TOKEN, whoever presents it; without, this host only.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { ProblemError } from '../http/problem-error.js';

const forwardingHeaders = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * The refusal for this request, or undefined when it may read the metrics. Without a token the TCP
 * peer must be loopback and the request not relayed: a reverse proxy on this host connects from
 * loopback on behalf of anyone, and says so in a forwarding header. request.ip is not used, since
 * TRUST_PROXY lets a trusted proxy name any client.
 */
export function metricsRefusal(request: Request, token: string | undefined): ProblemError | undefined {
  if (token !== undefined) {
    const presented = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (presented !== undefined && sameSecret(presented, token)) return undefined;
    return new ProblemError(
      401,
      'UNAUTHENTICATED',
      'A metrics token is required',
      'Send Authorization: Bearer <METRICS_TOKEN>',
    );
  }
  const relayed = forwardingHeaders.some((header) => request.headers[header] !== undefined);
  if (isLoopback(request.socket.remoteAddress) && !relayed) return undefined;
  return new ProblemError(
    403,
    'FORBIDDEN',
    'Metrics are served to this host only',
    'Without METRICS_TOKEN, GET /metrics answers only clients on this host that no proxy relays; set METRICS_TOKEN to scrape from elsewhere',
  );
}
