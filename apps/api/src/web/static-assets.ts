// Files of the built SPA (dist/web); hashed /assets/ files cached for a year. Never source maps (no `.map` type) nor
// dot-folders like `.vite/` (the chunk graph, with source paths), nor JSON.
import { createReadStream, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import type { Request, Response } from 'express';

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

type StaticFile = { file: string; size: number; contentType: string };

export function staticFile(root: string, path: string): StaticFile | undefined {
  // Every file served has an extension: a path with no dot, even encoded, names none (every API route).
  if (!path.includes('.') && !path.includes('%')) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return undefined;
  }
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

/** Best first. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

function encodedCopy(request: Request, found: StaticFile): { file: string; size: number; encoding?: string } {
  // Ours is the order among those accepted (q > 0), as nginx's precompressed files: brotli is the smaller.
  const encoding = ENCODINGS.find((candidate) => request.acceptsEncodings(candidate.name) === candidate.name);
  if (encoding !== undefined) {
    try {
      const stats = statSync(found.file + encoding.suffix);
      if (stats.isFile()) return { file: found.file + encoding.suffix, size: stats.size, encoding: encoding.name };
    } catch {
      // No copy of this file (small, or not text): the file itself.
    }
  }
  return found;
}

export function sendStaticFile(request: Request, response: Response, found: StaticFile): void {
  const sent = encodedCopy(request, found);
  response.status(200);
  response.setHeader('Content-Type', found.contentType);
  response.setHeader('Content-Length', String(sent.size));
  if (sent.encoding !== undefined) response.setHeader('Content-Encoding', sent.encoding);
  response.setHeader('Vary', 'Accept-Encoding');
  response.setHeader(
    'Cache-Control',
    request.path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
  );
  if (request.method === 'HEAD') {
    response.end();
    return;
  }
  createReadStream(sent.file).pipe(response);
}
