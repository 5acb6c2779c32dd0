import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { precompress } from './build/precompress';

// The SPA is built into dist/web and served by apps/api on the same origin.
const outDir = fileURLToPath(new URL('../dist/web', import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), precompress(outDir)],
  resolve: {
    // The pure libs the SPA shares with the server, imported file by file: `@libs/web-rules/safe-redirect-path`.
    alias: [
      {
        find: /^@libs\/(domain|web-rules)\//,
        replacement: `${fileURLToPath(new URL('../libs', import.meta.url))}/$1/src/`,
      },
    ],
  },
  build: {
    outDir,
    emptyOutDir: true,
    // Maps are for the error-reporting service (upload with the release id); pages do not point to them.
    sourcemap: 'hidden',
    // bench/web reads it to find every chunk the login page loads.
    manifest: true,
    // Every browser the SPA targets supports <link rel="modulepreload">: no polyfill in the bundle.
    modulePreload: { polyfill: false },
  },
  server: {
    proxy: {
      '^/(login|forgot|reset|logout|session|auth|organizations|health)': {
        target: 'http://127.0.0.1:3000',
        // Page loads of the SPA's own routes stay with the dev server; calls and /auth go to the API.
        bypass: (request) =>
          request.method === 'GET' && request.headers.accept?.includes('text/html') && !request.url?.startsWith('/auth')
            ? '/index.html'
            : undefined,
      },
    },
  },
});
