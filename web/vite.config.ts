import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

// The SPA is built into dist/web and served by apps/api on the same origin.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
  },
  server: { proxy: { '^/(login|forgot|reset|logout|session|auth|organizations|health)': 'http://127.0.0.1:3000' } },
});
