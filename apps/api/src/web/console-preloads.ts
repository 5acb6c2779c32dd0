// A console page must not load one thing after another (the app, then its lazy chunk, then the session,
// then the organization): its HTML names them all at once, so the browser fetches them in parallel with
// the app. The chunks come from Vite's manifest; the reads are the exact URLs the console asks first, and
// a fetch matching a preload's URL, mode and credentials is answered by it (no second request).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type ManifestChunk = { file: string; src?: string; isEntry?: boolean; imports?: string[]; css?: string[] };
type Manifest = Record<string, ManifestChunk>;

const CONSOLE_SOURCE = 'src/app/console/console-app.tsx';

const attribute = (value: string): string =>
  value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** The console chunk and the chunks it imports that the entry does not, and its styles; [] without a manifest. */
export function consoleChunkLinks(webRoot: string): string[] {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(join(webRoot, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  } catch {
    return [];
  }
  const entry = Object.values(manifest).find((chunk) => chunk.isEntry === true);
  const loadedWithEntry = new Set<string>(
    entry === undefined ? [] : [entry.file, ...(entry.imports ?? []).map((key) => manifest[key]?.file ?? '')],
  );
  const consoleChunk = Object.values(manifest).find((chunk) => chunk.src === CONSOLE_SOURCE);
  if (consoleChunk === undefined) return [];
  const scripts = new Set<string>();
  const visit = (chunk: ManifestChunk | undefined): void => {
    if (chunk === undefined || loadedWithEntry.has(chunk.file) || scripts.has(chunk.file)) return;
    scripts.add(chunk.file);
    for (const key of chunk.imports ?? []) visit(manifest[key]);
  };
  visit(consoleChunk);
  return [
    ...[...scripts].map((file) => `<link rel="modulepreload" crossorigin href="/${attribute(file)}">`),
    ...(consoleChunk.css ?? []).map((file) => `<link rel="preload" as="style" crossorigin href="/${attribute(file)}">`),
  ];
}

/** The reads a console page starts with: the session, and the organization it shows (if known here). */
export function consoleReadLinks(organizationId: string | undefined): string[] {
  const reads = [
    '/session',
    // As the console asks for it (web/src/api/organization-api.ts): without its member list.
    ...(organizationId === undefined ? [] : [`/organizations/${encodeURIComponent(organizationId)}?members=none`]),
  ];
  return reads.map((url) => `<link rel="preload" as="fetch" crossorigin href="${attribute(url)}">`);
}

/** The page with these links at the end of its head. */
export function withHeadLinks(html: string, links: readonly string[]): string {
  return links.length === 0 ? html : html.replace('</head>', `    ${links.join('\n    ')}\n  </head>`);
}
