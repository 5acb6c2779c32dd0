// Express tries a request against every route in turn, in the order they were registered: a request for
// /session walked past the ~50 routes registered before it, each a regular expression run, a match
// result and a layer step (the router's own time was ~8% of GET /health's CPU, bench/http). Here the
// routes are grouped by their first path segment, each group an Express router of its own holding the
// same route layers in the same order, and a request first goes through the group of its own first
// segment. No route of another group could match it, so the route that answers is the same one, and
// the router does everything else as before (params, HEAD, errors). A request its group does not
// answer goes on to the routes themselves, which stay in the app's router (so the 404, the automatic
// OPTIONS handling and everything that reads the router's routes are as they were).
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';

type Layer = { route?: { path?: unknown }; handle: unknown };
type Router = {
  stack: Layer[];
  caseSensitive?: boolean;
  strict?: boolean;
  mergeParams?: boolean;
  params: object;
  handle(request: Request, response: Response, next: NextFunction): void;
  use(handler: (request: Request, response: Response, next: NextFunction) => void): void;
};

/** A route's first segment when it is plain text (`/health/ready` -> `health`); undefined for a parameter, wildcard or group there. */
function literalFirstSegment(path: unknown): string | undefined {
  if (typeof path !== 'string') return undefined;
  return /^\/([A-Za-z0-9_~-]+)(?=\/|$)/.exec(path)?.[1];
}

/** A request path's first segment (`/health/ready` -> `health`). */
function requestFirstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return end === -1 ? path.slice(1) : path.slice(1, end);
}

const ASCII = /^[\x20-\x7e]*$/;

/**
 * Puts one layer before the run of route layers in the app's router that sends each request to the
 * routes of its first segment. Routes whose first segment is not plain text (none today) are in every
 * group, in their place. Call after app.init(), once Nest has registered its routes.
 */
export function dispatchRoutesByFirstSegment(app: NestExpressApplication): void {
  const router = (app.getHttpAdapter().getInstance() as unknown as { router: Router }).router;
  const stack = router.stack;
  const first = stack.findIndex((layer) => layer.route !== undefined);
  if (first === -1) return;
  let end = first;
  while (end < stack.length && stack[end]?.route !== undefined) end += 1;
  const routes = stack.slice(first, end);
  if (routes.length < 2) return;

  // Each group is a router like the app's own (the same prototype, settings and param callbacks), with
  // its own list of the same route layers: its handle() walks them as the app's router walked them.
  // (The router package's constructor is not reachable from here: Express is Nest's dependency.)
  const newRouter = (layers: Layer[]): Router =>
    Object.assign(Object.create(Object.getPrototypeOf(router) as object) as Router, {
      caseSensitive: router.caseSensitive,
      mergeParams: router.mergeParams,
      params: router.params,
      strict: router.strict,
      stack: layers,
    });
  // Case-insensitive routing (Express's default) matches ASCII letters in any case; case-sensitive, the exact text.
  const caseSensitive = router.caseSensitive === true;
  const key = (segment: string) => (caseSensitive ? segment : segment.toLowerCase());
  const segmentOf = routes.map((layer) => literalFirstSegment(layer.route?.path));
  const groups = new Map<string, Router>();
  for (const segment of new Set(segmentOf.filter((segment) => segment !== undefined).map(key))) {
    const inGroup = routes.filter((_layer, index) => {
      const own = segmentOf[index];
      return own === undefined || key(own) === segment;
    });
    groups.set(segment, newRouter(inGroup));
  }
  const general = routes.filter((_layer, index) => segmentOf[index] === undefined);
  const others = general.length === 0 ? undefined : newRouter(general);

  router.use((request: Request, response: Response, next: NextFunction) => {
    // OPTIONS (the router gathers the methods of the routes its path matches for its automatic answer) and
    // a segment beyond printable ASCII (case folding left to the routes' own expressions) walk every
    // route as before. So does a segment no route starts with: nothing to skip there but a 404.
    if (request.method === 'OPTIONS') {
      next();
      return;
    }
    const segment = requestFirstSegment(request.path);
    const group = caseSensitive || ASCII.test(segment) ? (groups.get(key(segment)) ?? others) : undefined;
    if (group === undefined) {
      next();
      return;
    }
    group.handle(request, response, (error?: unknown) => {
      if (error) next(error);
      // A route that passed the request on (none does: Nest's routes answer or throw) would be run again
      // by the walk below: refuse loudly rather than run a handler twice.
      else if ((request as Request & { route?: unknown }).route !== undefined) next(new Error(`The route of ${request.method} ${request.path} passed the request on`));
      // No route of its group matched: the walk of every route below matches none either, then the 404.
      else next();
    });
  });
  // Just before the routes, which stay where they were: a request its group did not answer walks them.
  const dispatcher = stack.pop() as Layer;
  stack.splice(first, 0, dispatcher);
}
