// The routes Express's router really has, for tests that must cover every one (the OpenAPI document, the
// half-open session). Nest names each controller route's handler `Controller.method`; its middleware (the
// SPA, XSRF) sits on `/{*path}` for every method at once and is no route of the API.
import type { RunningApp } from './start-app.js';

type RouterLayer = { route?: { path: string; methods: Record<string, boolean>; stack: { name: string }[] } };

/** `METHOD /path` → handler name. */
export function routerRoutes(app: RunningApp): Map<string, string> {
  const router = (app.app.getHttpAdapter().getInstance() as { router: { stack: RouterLayer[] } }).router;
  const routes = new Map<string, string>();
  for (const { route } of router.stack) {
    if (route === undefined) continue;
    const methods = Object.keys(route.methods).filter((method) => route.methods[method]);
    if (methods.length !== 1) continue;
    routes.set(`${methods[0]?.toUpperCase()} ${route.path}`, route.stack.at(-1)?.name ?? '(anonymous)');
  }
  return routes;
}
