// A minimal Sentry client, loaded only at a page's first error (error-reporting.ts).

export type ErrorReport = { dsn: string; releaseId: string; error: unknown; url: string };

export type ReporterEnvironment = {
  fetch: (url: string, init: RequestInit) => Promise<unknown>;
  now: () => Date;
  randomBytes: (length: number) => Uint8Array;
  userAgent: string;
};

type StackFrame = { function?: string; filename: string; lineno: number; colno: number; in_app: boolean };

/** DSN `https://<public key>@<host>[/<path>]/<project id>`. */
export function envelopeEndpoint(dsn: string): string | null {
  let url: URL;
  try {
    url = new URL(dsn);
  } catch {
    return null;
  }
  const segments = url.pathname.split('/');
  const projectId = segments.pop();
  if (!url.username || !projectId || (url.protocol !== 'https:' && url.protocol !== 'http:')) return null;
  const query = new URLSearchParams({ sentry_key: url.username, sentry_version: '7', sentry_client: 'chorus-web/1' });
  return `${url.protocol}//${url.host}${segments.join('/')}/api/${projectId}/envelope/?${query}`;
}

// V8 ('    at name (file:1:2)' or '    at file:1:2') and Firefox/Safari ('name@file:1:2') stack lines.
const V8_FRAME = /^\s*at (?:(.+?) \()?(.+?):(\d+):(\d+)\)?$/;
const GECKO_FRAME = /^(.*?)@(.+?):(\d+):(\d+)$/;

export function parseStack(stack: string): StackFrame[] {
  const frames: StackFrame[] = [];
  for (const line of stack.split('\n')) {
    const match = V8_FRAME.exec(line) ?? GECKO_FRAME.exec(line);
    if (!match) continue;
    const [, name, filename = '', lineno = '0', colno = '0'] = match;
    frames.push({
      ...(name ? { function: name } : {}),
      filename,
      lineno: Number(lineno),
      colno: Number(colno),
      in_app: true,
    });
  }
  // Sentry lists the oldest call first.
  return frames.reverse();
}

function exception(error: unknown) {
  if (error instanceof Error) {
    const frames = error.stack ? parseStack(error.stack) : [];
    return { type: error.name, value: error.message, ...(frames.length > 0 ? { stacktrace: { frames } } : {}) };
  }
  return { type: 'Error', value: typeof error === 'string' ? error : (JSON.stringify(error) ?? String(error)) };
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

export function buildEnvelope(report: ErrorReport, environment: Omit<ReporterEnvironment, 'fetch'>): string {
  const now = environment.now();
  const eventId = hex(environment.randomBytes(16));
  const event = {
    event_id: eventId,
    timestamp: now.getTime() / 1000,
    platform: 'javascript',
    level: 'error',
    release: report.releaseId,
    request: { url: report.url, headers: { 'User-Agent': environment.userAgent } },
    exception: { values: [exception(report.error)] },
  };
  return [
    JSON.stringify({ event_id: eventId, sent_at: now.toISOString(), dsn: report.dsn }),
    JSON.stringify({ type: 'event' }),
    JSON.stringify(event),
  ].join('\n');
}

const browserEnvironment = (): ReporterEnvironment => ({
  fetch: (url, init) => window.fetch(url, init),
  now: () => new Date(),
  randomBytes: (length) => crypto.getRandomValues(new Uint8Array(length)),
  userAgent: navigator.userAgent,
});

export async function reportError(
  report: ErrorReport,
  environment: ReporterEnvironment = browserEnvironment(),
): Promise<void> {
  const endpoint = envelopeEndpoint(report.dsn);
  if (endpoint === null) return;
  // Not the app's HTTP client: another origin, no XSRF token, and a text/plain body needs no CORS preflight.
  await environment.fetch(endpoint, { method: 'POST', body: buildEnvelope(report, environment), keepalive: true });
}
