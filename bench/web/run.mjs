// The weight of the sign-in page and of the console: the gzipped JS and CSS a browser loads for the
// login screen, and for a console page (the login's files plus the console's lazily loaded chunks).
// Run `npm run build:web` first; this reads dist/web (index.html and Vite's manifest), builds nothing,
// prints the figures against the targets and the issue's reference figures, and rewrites README.md here.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '../../dist/web');
const manifestPath = join(dist, '.vite/manifest.json');
const htmlPath = join(dist, 'index.html');

// Sizes are in kB of 1000 bytes, as Vite prints them.
const TARGET_JS_KB = 100;
// docs/console.md: the console's JS stays within 200 kB gzipped (everything a console page loads).
const TARGET_CONSOLE_JS_KB = 200;
const CONSOLE_ENTRY = 'src/app/console/console-app.tsx';
const REFERENCES = [
  { name: "Clerk's hosted sign-in page (JS, gzipped)", kb: 252 },
  { name: 'React 19 + react-router + Redux Toolkit + axios alone (JS, gzipped)', kb: 110 },
];

function fail(message) {
  console.error(message);
  process.exit(1);
}

if (!existsSync(manifestPath) || !existsSync(htmlPath)) {
  fail('dist/web has no build with a manifest: run `npm run build:web` first.');
}

const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const html = readFileSync(htmlPath, 'utf8');

const entry = Object.values(manifest).find((chunk) => chunk.isEntry && chunk.src === 'index.html');
if (!entry) fail('the manifest has no entry for index.html');

// Everything the page loads before it can run: the entry, its static imports (transitively) and their CSS.
const loaded = { js: new Set(), css: new Set() };
const lazy = new Set();
const visit = (key, chunk) => {
  if (loaded.js.has(chunk.file)) return;
  loaded.js.add(chunk.file);
  for (const css of chunk.css ?? []) loaded.css.add(css);
  for (const dynamic of chunk.dynamicImports ?? []) lazy.add(dynamic);
  for (const imported of chunk.imports ?? []) visit(imported, manifest[imported]);
};
visit('index.html', entry);

// The HTML must ask for exactly these files, or the figures would describe another page.
const attribute = (tag, name) => new RegExp(`${name}="([^"]+)"`).exec(tag)?.[1];
const tags = html.match(/<(script|link)\b[^>]*>/g) ?? [];
const fromHtml = { js: new Set(), css: new Set() };
for (const tag of tags) {
  const rel = attribute(tag, 'rel');
  const url = tag.startsWith('<script')
    ? attribute(tag, 'src')
    : rel === 'stylesheet' || rel === 'modulepreload'
      ? attribute(tag, 'href')
      : undefined;
  if (!url) continue;
  const file = url.replace(/^\//, '');
  (file.endsWith('.css') ? fromHtml.css : fromHtml.js).add(file);
}
for (const kind of ['js', 'css']) {
  for (const file of fromHtml[kind]) {
    if (!loaded[kind].has(file)) fail(`index.html loads ${file}, which the manifest does not list for the entry`);
  }
  for (const file of loaded[kind]) {
    if (!fromHtml[kind].has(file)) fail(`the manifest lists ${file}, which index.html does not load`);
  }
}
if (!html.includes('<script id="chorus-config" type="application/json">')) {
  fail('index.html lacks the page-config element the server fills in');
}

const measure = (file) => {
  const bytes = readFileSync(join(dist, file));
  return {
    file,
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
};
const total = (files) =>
  files.reduce(
    (sum, file) => ({ raw: sum.raw + file.raw, gzip: sum.gzip + file.gzip, brotli: sum.brotli + file.brotli }),
    { raw: 0, gzip: 0, brotli: 0 },
  );
const kb = (bytes) => (bytes / 1000).toFixed(1);

const js = [...loaded.js].map(measure);
const css = [...loaded.css].map(measure);
const lazyChunks = [...lazy].map((key) => measure(manifest[key].file));
const jsTotal = total(js);
const cssTotal = total(css);

// A console page: the login page's files, then the console's chunk and everything it imports statically.
const consoleKey = Object.keys(manifest).find((key) => key === CONSOLE_ENTRY);
if (!consoleKey) fail(`the manifest has no chunk for ${CONSOLE_ENTRY}: is the console still loaded lazily from there?`);
const consoleFiles = { js: new Set(loaded.js), css: new Set(loaded.css) };
const visitConsole = (key) => {
  const chunk = manifest[key];
  if (consoleFiles.js.has(chunk.file)) return;
  consoleFiles.js.add(chunk.file);
  for (const file of chunk.css ?? []) consoleFiles.css.add(file);
  for (const imported of chunk.imports ?? []) visitConsole(imported);
};
visitConsole(consoleKey);
const consoleJs = [...consoleFiles.js].filter((file) => !loaded.js.has(file)).map(measure);
const consoleCss = [...consoleFiles.css].filter((file) => !loaded.css.has(file)).map(measure);
const consoleJsTotal = total([...js, ...consoleJs]);
const consoleCssTotal = total([...css, ...consoleCss]);

const consoleFileNames = new Set([...consoleJs, ...consoleCss].map((file) => file.file));
const rows = [
  ...js.map((file) => ['JS', file]),
  ...css.map((file) => ['CSS', file]),
  ...lazyChunks.filter((file) => !consoleFileNames.has(file.file)).map((file) => ['JS, loaded on demand only', file]),
  ...consoleJs.map((file) => ['JS, console only', file]),
  ...consoleCss.map((file) => ['CSS, console only', file]),
];
const percent = (bytes, targetKb) => ((bytes / (targetKb * 1000)) * 100).toFixed(0);
const lines = [
  `Login page (dist/web/index.html), kB = 1000 bytes, gzip level 9, brotli quality 11`,
  '',
  ...rows.map(
    ([kind, file]) =>
      `  ${kind.padEnd(26)} ${file.file.padEnd(42)} ${kb(file.raw).padStart(7)} raw ${kb(file.gzip).padStart(6)} gzip ${kb(file.brotli).padStart(6)} brotli`,
  ),
  '',
  `  JS loaded by the login page:  ${kb(jsTotal.gzip)} kB gzipped (${kb(jsTotal.brotli)} kB brotli)`,
  `  CSS loaded by the login page: ${kb(cssTotal.gzip)} kB gzipped (${kb(cssTotal.brotli)} kB brotli)`,
  `  JS loaded by a console page:  ${kb(consoleJsTotal.gzip)} kB gzipped (${kb(consoleJsTotal.brotli)} kB brotli), the login page's included`,
  `  CSS loaded by a console page: ${kb(consoleCssTotal.gzip)} kB gzipped (${kb(consoleCssTotal.brotli)} kB brotli)`,
  '',
  `  login page target <= ${TARGET_JS_KB} kB JS gzipped: ${jsTotal.gzip <= TARGET_JS_KB * 1000 ? 'met' : 'MISSED'} (${percent(jsTotal.gzip, TARGET_JS_KB)}% of it)`,
  `  console target <= ${TARGET_CONSOLE_JS_KB} kB JS gzipped: ${consoleJsTotal.gzip <= TARGET_CONSOLE_JS_KB * 1000 ? 'met' : 'MISSED'} (${percent(consoleJsTotal.gzip, TARGET_CONSOLE_JS_KB)}% of it)`,
  ...REFERENCES.map(
    (reference) => `  vs ${reference.name}, ${reference.kb} kB: ${(jsTotal.gzip / (reference.kb * 1000)).toFixed(2)}x`,
  ),
];
console.log(lines.join('\n'));

const table = [
  '| what | file | raw kB | gzip kB | brotli kB |',
  '|---|---|---:|---:|---:|',
  ...rows.map(
    ([kind, file]) =>
      `| ${kind} | \`${file.file.replace(/-[\w-]{8}\./, '.')}\` | ${kb(file.raw)} | ${kb(file.gzip)} | ${kb(file.brotli)} |`,
  ),
  `| **JS the login page loads** | | ${kb(jsTotal.raw)} | **${kb(jsTotal.gzip)}** | ${kb(jsTotal.brotli)} |`,
  `| **CSS the login page loads** | | ${kb(cssTotal.raw)} | **${kb(cssTotal.gzip)}** | ${kb(cssTotal.brotli)} |`,
  `| **JS a console page loads** (the login page's included) | | ${kb(consoleJsTotal.raw)} | **${kb(consoleJsTotal.gzip)}** | ${kb(consoleJsTotal.brotli)} |`,
  `| **CSS a console page loads** | | ${kb(consoleCssTotal.raw)} | **${kb(consoleCssTotal.gzip)}** | ${kb(consoleCssTotal.brotli)} |`,
];

const readme = `# bench/web: the weight of the sign-in page and of the console

\`npm run build:web && node bench/web/run.mjs\` measures the JavaScript and CSS a browser loads for the
login screen: the script and styles \`dist/web/index.html\` names, plus every chunk they import
statically (read from Vite's manifest, \`dist/web/.vite/manifest.json\`, and checked against the HTML).
Chunks loaded only on demand are listed apart and not counted for it. A console page loads all that,
then the console's chunk (\`${CONSOLE_ENTRY}\`, imported lazily by the router) and every chunk it imports
statically: that total is measured against the console's budget. Sizes are kB of 1000 bytes, gzip level 9
(brotli quality 11 for comparison). This file is rewritten by each run.

## Last measurement

${table.join('\n')}

| compared with | kB (JS, gzipped) | ratio |
|---|---:|---:|
| login page target | ${TARGET_JS_KB} | ${(jsTotal.gzip / (TARGET_JS_KB * 1000)).toFixed(2)} |
| console target (a console page, all its JS) | ${TARGET_CONSOLE_JS_KB} | ${(consoleJsTotal.gzip / (TARGET_CONSOLE_JS_KB * 1000)).toFixed(2)} |
${REFERENCES.map((reference) => `| ${reference.name} | ${reference.kb} | ${(jsTotal.gzip / (reference.kb * 1000)).toFixed(2)} |`).join('\n')}

The reference figures are quoted, not measured here.

## What keeps it small
The figures in this list were measured once, on minimal apps built with Vite 8.3.8, not by this script.
- One fetch-based HTTP client with axios's defaults (\`web/src/lib/http-client.ts\`) instead of axios (~20 kB gzipped).
- \`<BrowserRouter>\`/\`<Routes>\` rather than a data router (\`createBrowserRouter\`), about 16 kB gzipped less.
- The error reporter is its own chunk, fetched only when an error happens on a page configured with a DSN.
- The showcase illustration is a CSS background image, not JS, and is never downloaded on narrow screens, where its pane is hidden.
- React 19 (react-dom) alone is about 67 kB of the total.
- The console (its routes, its RTK Query data layer, its CSS) is loaded with \`React.lazy\` only when a
  \`/app\` page is opened, and injected into the store then (\`combineSlices(...).inject\`, a dynamic middleware).

## What the console costs the login page
Code splitting works per module: the parts of a library module that only the console uses still end up
in the chunk that holds that module, which the login page loads. Measured once (Vite 8.3.8): the login
page alone (the sign-in screens) loads 95.4 kB, with the console 98.4 kB. Of those 3.0 kB, measured
on the earlier base of 94.9 kB: lazy routes to an empty component cost 0.1 kB; the console's use of RTK
Query (which needs more of \`@reduxjs/toolkit\` than the sign-in slices do) and of react-router's
\`NavLink\`/\`Outlet\`/\`Navigate\` about 2.3 kB; the console's \`paths\`, shared controls and the dynamic
middleware about 0.7 kB. Plain thunks instead of RTK Query would save most of the 2.3 kB at the price of
hand-written caching and invalidation; with the login page at 98 % of its budget we kept RTK Query.

Watch the number of chunks the login page loads: importing one more sign-in component from a lazy chunk
(\`BackToLogIn\` on the invitation page) once made rolldown move the shared modules out of the
entry into a chunk of their own, and the two files compressed 1.2 kB worse (99.6 kB). The invitation page
therefore keeps its own way back (a "Back to log in" button on a spent link) rather than that import.

## Lighthouse
\`node bench/web/lighthouse.mjs\` (after \`npm run build\`) audits the login page and a signed-in console
page (\`/app\`: an organization and its owner made with the command line, the session cookie put in the
browser's jar) served by the real server in production mode, in Debian's Chromium with Lighthouse 12
(run through npx, not a project dependency; the desktop preset), and writes the performance,
accessibility and best-practices scores, the paint and blocking times, and the bytes over the wire
(what Chromium received: brotli, the precompressed assets) to LIGHTHOUSE.md beside this file, with the
load average. Targets: performance of at least 95 on both pages.

A cold console page used to load one thing after another (the app, then the console chunk it imports
lazily, then \`GET /session\`, then \`GET /organizations/:id\`). The server now names the chunk, its
styles and both reads in the page's HTML (\`apps/api/src/web/console-preloads.ts\`), so they load
together with the app (web/README.md, The console).
`;
writeFileSync(join(here, 'README.md'), readme);
