// Times every HTTP answer by its route pattern, and counts sign-in outcomes from the answers of the
// sign-in routes, so that neither the controllers nor the identity lib need to know about metrics.
import type { Request, Response } from 'express';
import { UNMATCHED_ROUTE, type ChorusMetrics } from './chorus-metrics.js';

/** The matched route's pattern (`/organizations/:id`), never the path: ids would make a series per organization. */
export function routePatternOf(request: Request): string {
  const route = (request as Request & { route?: { path?: unknown } }).route;
  return typeof route?.path === 'string' ? `${request.baseUrl}${route.path}` : UNMATCHED_ROUTE;
}

/** POST /login answers 204 on success (docs/api.md, Sign-in); its refusals by their status. */
function passwordOutcome(status: number): string {
  if (status === 204) return 'success';
  if (status === 401) return 'invalid_credentials';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'error';
  return 'refused';
}

/** The callback redirects to /login?error=google or ?error=account on a failure, elsewhere on success. */
function googleOutcome(status: number, location: string | undefined): string {
  if (status >= 500) return 'error';
  const error = /^\/login\?error=([a-z]+)/.exec(location ?? '')?.[1];
  if (error === 'google') return 'google_refused';
  if (error === 'account') return 'no_organization';
  return status === 302 ? 'success' : 'refused';
}

/**
 * Records one finished answer: its duration by method, route pattern and status, and the sign-in
 * outcome of the sign-in routes. Called from the request's single 'finish' listener (startRequest),
 * with the seconds since the request arrived.
 */
export function recordHttpAnswer(metrics: ChorusMetrics, request: Request, response: Response, seconds: number): void {
  const route = routePatternOf(request);
  const status = response.statusCode;
  const method = request.method;
  metrics.httpRequestDuration.observe({ method, route, status: String(status) }, seconds);
  if (method === 'POST' && route === '/login') {
    metrics.logins.inc({ method: 'password', outcome: passwordOutcome(status) });
  } else if (method === 'GET' && route === '/auth/google/callback') {
    const location = response.getHeader('location');
    metrics.logins.inc({
      method: 'google',
      outcome: googleOutcome(status, typeof location === 'string' ? location : undefined),
    });
  }
}
