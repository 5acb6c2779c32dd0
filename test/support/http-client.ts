// A small HTTP client over fetch for e2e tests: JSON in, parsed JSON (or text) out, never throws on a status.

export type HttpResponse = {
  status: number;
  headers: Headers;
  /** Parsed JSON when the answer is JSON (including application/problem+json), else undefined. */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever shape they expect
  text: string;
};

export type RequestOptions = {
  /** Sent as JSON (Content-Type: application/json). */
  json?: unknown;
  /** Sent as is, with whatever Content-Type `headers` give. */
  raw?: string | Buffer;
  headers?: Record<string, string>;
  /** Shortcut for `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
};

export type HttpClient = {
  request(method: string, path: string, options?: RequestOptions): Promise<HttpResponse>;
  get(path: string, options?: RequestOptions): Promise<HttpResponse>;
  post(path: string, json?: unknown, options?: RequestOptions): Promise<HttpResponse>;
  put(path: string, json?: unknown, options?: RequestOptions): Promise<HttpResponse>;
  delete(path: string, options?: RequestOptions): Promise<HttpResponse>;
};

/** `defaults` apply to every request (e.g. `{ apiKey }`); per-call options win. */
export function httpClient(baseUrl: string, defaults: RequestOptions = {}): HttpClient {
  const request = async (method: string, path: string, options: RequestOptions = {}): Promise<HttpResponse> => {
    const apiKey = options.apiKey ?? defaults.apiKey;
    const headers: Record<string, string> = {
      ...(options.json === undefined ? {} : { 'content-type': 'application/json' }),
      ...(apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` }),
      ...defaults.headers,
      ...options.headers,
    };
    const body = options.json === undefined ? options.raw : JSON.stringify(options.json);
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: typeof body === 'string' || body === undefined ? body : new Uint8Array(body),
    });
    const text = await response.text();
    const isJson = /[/+]json\b/.test(response.headers.get('content-type') ?? '');
    return {
      status: response.status,
      headers: response.headers,
      body: isJson && text !== '' ? JSON.parse(text) : undefined,
      text,
    };
  };
  return {
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, json, options) => request('POST', path, { ...options, json }),
    put: (path, json, options) => request('PUT', path, { ...options, json }),
    delete: (path, options) => request('DELETE', path, options),
  };
}
