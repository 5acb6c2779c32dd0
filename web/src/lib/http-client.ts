// The seed's defaults (section 7), which are axios's: JSON, any 2xx is success, no timeout, XSRF-TOKEN echoed
// same-origin, and an abort reported as 'canceled'.

export type HttpResponse<T = unknown> = { status: number; data: T };

export type HttpErrorCode = 'ERR_BAD_REQUEST' | 'ERR_BAD_RESPONSE' | 'ERR_NETWORK' | 'ERR_CANCELED';

export class HttpError extends Error {
  readonly code: HttpErrorCode;
  readonly response: HttpResponse | undefined;

  constructor(message: string, code: HttpErrorCode, response?: HttpResponse) {
    super(message);
    this.name = 'HttpError';
    this.code = code;
    this.response = response;
  }
}

/** `headers`: beyond the client's own (Accept, Content-Type, the XSRF token). */
export type RequestOptions = { signal?: AbortSignal; headers?: Readonly<Record<string, string>> };

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type HttpClient = {
  post<T = unknown>(url: string, data?: unknown, options?: RequestOptions): Promise<HttpResponse<T>>;
  request<T = unknown>(
    method: HttpMethod,
    url: string,
    data?: unknown,
    options?: RequestOptions,
  ): Promise<HttpResponse<T>>;
};

/** Injected so tests run without a browser. */
export type HttpEnvironment = {
  fetch: (url: string, init: RequestInit) => Promise<Pick<Response, 'status' | 'text'>>;
  cookies: () => string;
  origin: string;
};

const XSRF_COOKIE = 'XSRF-TOKEN';
const XSRF_HEADER = 'X-XSRF-TOKEN';

const browserEnvironment = (): HttpEnvironment => ({
  fetch: (url, init) => window.fetch(url, init),
  cookies: () => document.cookie,
  origin: window.location.origin,
});

export function readCookie(cookies: string, name: string): string | null {
  for (const pair of cookies.split(';')) {
    const separator = pair.indexOf('=');
    if (separator > 0 && pair.slice(0, separator).trim() === name) {
      try {
        return decodeURIComponent(pair.slice(separator + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

// Like axios: a JSON body is parsed, anything else is handed back as text.
function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function createHttpClient(environment: HttpEnvironment = browserEnvironment()): HttpClient {
  async function request(
    method: string,
    url: string,
    data: unknown,
    options: RequestOptions = {},
  ): Promise<HttpResponse> {
    const { signal } = options;
    const headers: Record<string, string> = { ...options.headers, Accept: 'application/json, text/plain, */*' };
    if (data !== undefined) headers['Content-Type'] = 'application/json';
    // The token never leaves this origin.
    if (new URL(url, environment.origin).origin === environment.origin) {
      const token = readCookie(environment.cookies(), XSRF_COOKIE);
      if (token) headers[XSRF_HEADER] = token;
    }
    let response: HttpResponse;
    try {
      const answer = await environment.fetch(url, {
        method,
        headers,
        body: data === undefined ? undefined : JSON.stringify(data),
        credentials: 'same-origin',
        signal,
      });
      response = { status: answer.status, data: parseBody(await answer.text()) };
    } catch {
      if (signal?.aborted) throw new HttpError('canceled', 'ERR_CANCELED');
      throw new HttpError('Network Error', 'ERR_NETWORK');
    }
    if (response.status >= 200 && response.status < 300) return response;
    throw new HttpError(
      `Request failed with status code ${response.status}`,
      response.status >= 500 ? 'ERR_BAD_RESPONSE' : 'ERR_BAD_REQUEST',
      response,
    );
  }

  return {
    post<T>(url: string, data?: unknown, options?: RequestOptions) {
      return request('POST', url, data, options) as Promise<HttpResponse<T>>;
    },
    request<T>(method: HttpMethod, url: string, data?: unknown, options?: RequestOptions) {
      return request(method, url, data, options) as Promise<HttpResponse<T>>;
    },
  };
}
