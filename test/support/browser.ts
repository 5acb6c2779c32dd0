// A browser for e2e tests: keeps the app's cookies, sends X-XSRF-TOKEN from the XSRF-TOKEN cookie
// on state-changing calls (as the SPA's client does), and never follows redirects by itself.

export type SetCookie = { name: string; value: string; attributes: Record<string, string | true> };

export type Answer = {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever shape they expect
  text: string;
  setCookies: SetCookie[];
  location: string | null;
};

export type CallOptions = {
  json?: unknown;
  /** A form POST (application/x-www-form-urlencoded), as an identity provider's auto-submitting page sends. */
  form?: Record<string, string>;
  headers?: Record<string, string>;
  /** false: send no X-XSRF-TOKEN; a string: send that instead of the cookie's value. */
  xsrf?: boolean | string;
};

export function parseSetCookie(header: string): SetCookie {
  const [pair = '', ...rest] = header.split(';');
  const separator = pair.indexOf('=');
  const attributes: Record<string, string | true> = {};
  for (const attribute of rest) {
    const [key = '', ...value] = attribute.trim().split('=');
    attributes[key.toLowerCase()] = value.length === 0 ? true : value.join('=');
  }
  return {
    name: pair.slice(0, separator).trim(),
    value: decodeURIComponent(pair.slice(separator + 1).trim()),
    attributes,
  };
}

const unsafe = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export class Browser {
  readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  /** A page load: Accept text/html, as a browser navigating. */
  open(path: string, headers: Record<string, string> = {}): Promise<Answer> {
    return this.request('GET', path, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8', ...headers } });
  }

  get(path: string, options: CallOptions = {}): Promise<Answer> {
    return this.request('GET', path, options);
  }

  post(path: string, json?: unknown, options: CallOptions = {}): Promise<Answer> {
    return this.request('POST', path, { ...options, json });
  }

  delete(path: string, options: CallOptions = {}): Promise<Answer> {
    return this.request('DELETE', path, options);
  }

  async request(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
    const url = new URL(path, this.baseUrl);
    const ours = url.origin === new URL(this.baseUrl).origin;
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (options.json !== undefined) headers['content-type'] = 'application/json';
    if (options.form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    if (ours && this.cookies.size > 0)
      headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('; ');
    const xsrf = options.xsrf ?? true;
    const token = typeof xsrf === 'string' ? xsrf : xsrf ? this.cookies.get('XSRF-TOKEN') : undefined;
    if (ours && unsafe.has(method) && token !== undefined) headers['x-xsrf-token'] = token;

    const response = await fetch(url, {
      method,
      headers,
      redirect: 'manual',
      ...(options.json === undefined ? {} : { body: JSON.stringify(options.json) }),
      ...(options.form === undefined ? {} : { body: new URLSearchParams(options.form).toString() }),
    });
    const text = await response.text();
    const setCookies = response.headers.getSetCookie().map(parseSetCookie);
    if (ours) {
      for (const cookie of setCookies) {
        const expired =
          cookie.attributes['max-age'] === '0' ||
          (typeof cookie.attributes.expires === 'string' && new Date(cookie.attributes.expires).getTime() < Date.now());
        if (expired) this.cookies.delete(cookie.name);
        else this.cookies.set(cookie.name, cookie.value);
      }
    }
    const isJson = /[/+]json\b/.test(response.headers.get('content-type') ?? '');
    return {
      status: response.status,
      headers: response.headers,
      body: isJson && text !== '' ? JSON.parse(text) : undefined,
      text,
      setCookies,
      location: response.headers.get('location'),
    };
  }
}
