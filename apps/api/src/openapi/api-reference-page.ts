// GET /docs: the OpenAPI document as one server-rendered page with its own small stylesheet, so that
// reading the API loads no script at all and nothing of it reaches the sign-in page's bundle.
import { commonRefusalWords, type OpenApiDocument, type OpenApiOperation } from './openapi-document.js';
import { bodyFields, schemaInWords } from './schema-in-words.js';

function escape(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

/** `code` spans for backticks, the only markup the texts use. */
function prose(text: string): string {
  return escape(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

function bodyTable(schema: unknown): string {
  const rows = bodyFields(schema)
    .map(
      (field) =>
        `<tr><td><code>${escape(field.name)}</code>${field.required ? ' (required)' : ''}</td><td>${escape(field.words)}</td></tr>`,
    )
    .join('');
  return `<table><caption>JSON body</caption><thead><tr><th scope="col">field</th><th scope="col">takes</th></tr></thead><tbody>${rows}</tbody></table>`;
}

const common = new Set<string>(Object.values(commonRefusalWords));

function operationSection(method: string, path: string, operation: OpenApiOperation): string {
  const id = operation.operationId;
  const parameters =
    operation.parameters.length === 0
      ? ''
      : `<table><caption>Parameters</caption><thead><tr><th scope="col">name</th><th scope="col">in</th><th scope="col">takes</th></tr></thead><tbody>${operation.parameters
          .map(
            (parameter) =>
              `<tr><td><code>${escape(parameter.name)}</code>${parameter.required ? ' (required)' : ''}</td><td>${parameter.in}</td><td>${escape(schemaInWords(parameter.schema))}</td></tr>`,
          )
          .join('')}</tbody></table>`;
  const content = operation.requestBody === undefined ? undefined : Object.values(operation.requestBody.content)[0];
  const body = content === undefined ? '' : bodyTable(content.schema);
  // The refusals any route of its kind can answer are said once, in the header.
  const responses = `<ul class="responses">${Object.entries(operation.responses)
    .filter(([, response]) => !common.has(response.description))
    .map(([status, response]) => `<li><strong>${escape(status)}</strong> ${prose(response.description)}</li>`)
    .join('')}</ul>`;
  return `<section class="operation" id="${escape(id)}">
<h3><span class="method method-${method}">${method.toUpperCase()}</span> <code>${escape(path)}</code></h3>
<p>${prose(operation.summary)}</p>
${
  operation.description === undefined
    ? ''
    : operation.description
        .split('\n\n')
        .map((paragraph) => `<p>${prose(paragraph)}</p>`)
        .join('\n')
}
${parameters}
${body}
${responses}
</section>`;
}

export function apiReferencePage(document: OpenApiDocument): string {
  const byTag = new Map<string, string[]>();
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const tag = operation.tags[0] ?? '';
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationSection(method, path, operation)]);
    }
  }
  const tags = [...byTag.keys()].sort();
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(document.info.title)} reference</title>
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
<link rel="stylesheet" href="/docs/docs.css">
</head>
<body>
<header><h1>${escape(document.info.title)}</h1><p>${prose(document.info.description)}</p>
<p>Besides what each operation lists, an operation that takes input can answer 400 (${prose(commonRefusalWords.invalid)}), any 413 and 415 to a body,
and one that needs a credential 401 and 403; every refusal is problem+json (RFC 9457) with a stable <code>code</code>.</p>
<p>The same, for tools: <a href="/docs/openapi.json">openapi.json</a> (OpenAPI ${document.openapi}, version ${escape(document.info.version)}), with the schema of every body and answer.</p></header>
<nav aria-label="Sections"><ul>${tags.map((tag) => `<li><a href="#tag-${escape(tag)}">/${escape(tag)}</a></li>`).join('')}</ul></nav>
<main>
${tags.map((tag) => `<h2 id="tag-${escape(tag)}">/${escape(tag)}</h2>\n${(byTag.get(tag) ?? []).join('\n')}`).join('\n')}
</main>
</body>
</html>
`;
}

export const apiReferenceStyles = `:root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2933; background: #f5f7fa; }
body { margin: 0 auto; max-width: 60rem; padding: 2rem 1rem 4rem; line-height: 1.5; }
h1 { margin: 0 0 .5rem; font-size: 1.75rem; }
h2 { margin: 2.5rem 0 1rem; font-size: 1.25rem; border-bottom: 1px solid #cbd2d9; padding-bottom: .25rem; }
h3 { margin: 0 0 .5rem; font-size: 1rem; display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; }
nav ul { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .5rem 1rem; }
a { color: #1d4ed8; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .875rem; }
pre { background: #fff; border: 1px solid #e4e7eb; border-radius: 6px; padding: .75rem; overflow-x: auto; }
.operation { background: #fff; border: 1px solid #e4e7eb; border-radius: 8px; padding: 1rem 1.25rem; margin: 0 0 1rem; }
.method { display: inline-block; min-width: 4rem; text-align: center; border-radius: 4px; padding: .1rem .4rem; font-size: .75rem; font-weight: 700; color: #fff; background: #52606d; }
.method-get { background: #1d4ed8; } .method-post { background: #047857; } .method-put, .method-patch { background: #92400e; } .method-delete { background: #b91c1c; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0; font-size: .875rem; }
caption { text-align: left; font-weight: 600; padding-bottom: .25rem; }
th, td { text-align: left; border-top: 1px solid #e4e7eb; padding: .25rem .5rem .25rem 0; vertical-align: top; }
td code, td:last-child, h3 code, nav code { word-break: break-word; overflow-wrap: anywhere; }
.operation p, .responses { overflow-wrap: anywhere; }
.responses { padding-left: 1.25rem; margin: .5rem 0 0; }
`;
