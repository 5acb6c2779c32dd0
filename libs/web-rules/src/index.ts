// Rules the browser and the server both apply to what a browser sends. Pure TypeScript, no imports:
// the SPA imports these files directly (web/vite.config.ts, `@libs/web-rules/...`).
export { safeRedirectPath, sameOriginPath } from './safe-redirect-path.js';
export type { PageConfig } from './page-config.js';
