// Files of the built SPA (dist/web). Hashed /assets/ files are cached for a year. Build metadata is
// not served: source maps are for the error-reporting service, not for browsers (no `.map` type
// below), and Vite's `.vite/manifest.json` (the whole chunk graph, with source paths) sits in a
// dot-folder, like any hidden file: no path with a segment starting with '.' is served, nor JSON.
import { createReadStream, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import type { Response } from 'express';

const contentTypes: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/** The file under root that a request path names, if it is one we serve. */
export function staticFile(root: string, path: string): { file: string; size: number; contentType: string } | undefined {
  // Every file served has an extension: a path with no dot, even encoded, names none (every API route).
  if (!path.includes('.') && !path.includes('%')) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return undefined;
  }
  // '..' (outside the root) and hidden files and folders ('.vite/', '.env') alike.
  if (decoded.includes('\0') || decoded.split(/[/\\]/).some((segment) => segment.startsWith('.'))) return undefined;
  const contentType = contentTypes[extname(decoded).toLowerCase()];
  if (contentType === undefined) return undefined;
  const file = normalize(join(root, decoded));
  if (!file.startsWith(root + sep)) return undefined;
  try {
    const stats = statSync(file);
    return stats.isFile() ? { file, size: stats.size, contentType } : undefined;
  } catch {
    return undefined;
  }
}

export function sendStaticFile(response: Response, path: string, found: { file: string; size: number; contentType: string }, headOnly: boolean): void {
  response.status(200);
  response.setHeader('Content-Type', found.contentType);
  response.setHeader('Content-Length', String(found.size));
  response.setHeader('Cache-Control', path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
  if (headOnly) {
    response.end();
    return;
  }
  createReadStream(found.file).pipe(response);
}
