import { describe, expect, it } from '@jest/globals';
import { createFakeNetwork } from '../testing/fake-network';
import { HttpError, readCookie } from './http-client';

const failure = async (promise: Promise<unknown>): Promise<HttpError> => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error('the request succeeded');
};

describe('the http client', () => {
  it('sends the payload as JSON and accepts JSON, with the session cookie of this origin only', async () => {
    const network = createFakeNetwork();
    const answer = network.http.post('/login', { username: 'ada', password: 'secret' });
    const request = network.onlyRequest();
    expect(request).toMatchObject({ url: '/login', method: 'POST', body: { username: 'ada', password: 'secret' } });
    expect(request.init.body).toBe('{"username":"ada","password":"secret"}');
    expect(request.headers['Content-Type']).toBe('application/json');
    expect(request.headers.Accept).toBe('application/json, text/plain, */*');
    expect(request.init.credentials).toBe('same-origin');
    request.respond(200, { ok: true });
    await expect(answer).resolves.toEqual({ status: 200, data: { ok: true } });
  });

  it('echoes the XSRF-TOKEN cookie in the X-XSRF-TOKEN header', async () => {
    const network = createFakeNetwork({ cookies: 'theme=dark; XSRF-TOKEN=abc%2F123%3D; other=1' });
    void network.http.post('/forgot', { email: 'a@b.c' });
    expect(network.onlyRequest().headers['X-XSRF-TOKEN']).toBe('abc/123=');
  });

  it('sends no XSRF header when there is no cookie', async () => {
    const network = createFakeNetwork({ cookies: 'XSRF-TOKEN-OLD=stale' });
    void network.http.post('/forgot', { email: 'a@b.c' });
    expect(network.onlyRequest().headers).not.toHaveProperty('X-XSRF-TOKEN');
  });

  it('never sends the XSRF token to another origin', async () => {
    const network = createFakeNetwork({ cookies: 'XSRF-TOKEN=abc' });
    void network.http.post('https://elsewhere.example/collect', {});
    void network.http.post('http://localhost/same', {});
    expect(network.requests.map((request) => request.headers['X-XSRF-TOKEN'])).toEqual([undefined, 'abc']);
  });

  it('sets no timeout of its own', () => {
    const network = createFakeNetwork();
    void network.http.post('/login', {});
    expect(network.onlyRequest().init.signal).toBeUndefined();
  });

  it.each([200, 201, 202, 204, 299])('treats %i as success', async (status) => {
    const network = createFakeNetwork();
    const answer = network.http.post('/reset', {});
    network.onlyRequest().respond(status);
    await expect(answer).resolves.toEqual({ status, data: '' });
  });

  it.each([
    [300, 'ERR_BAD_REQUEST'],
    [400, 'ERR_BAD_REQUEST'],
    [401, 'ERR_BAD_REQUEST'],
    [429, 'ERR_BAD_REQUEST'],
    [500, 'ERR_BAD_RESPONSE'],
    [503, 'ERR_BAD_RESPONSE'],
  ])('treats %i as a failure (%s) and keeps the answer', async (status, code) => {
    const network = createFakeNetwork();
    const answer = network.http.post('/reset', {});
    network.onlyRequest().respond(status, { code: 'INVALID_TOKEN', detail: 'gone' });
    const error = await failure(answer);
    expect(error.message).toBe(`Request failed with status code ${status}`);
    expect(error.code).toBe(code);
    expect(error.response).toEqual({ status, data: { code: 'INVALID_TOKEN', detail: 'gone' } });
  });

  it('hands back a body that is not JSON as text', async () => {
    const network = createFakeNetwork();
    const answer = network.http.post('/login', {});
    network.onlyRequest().respond(200, '<html>not json</html>');
    await expect(answer).resolves.toEqual({ status: 200, data: '<html>not json</html>' });
  });

  it("reports an aborted request as 'canceled'", async () => {
    const network = createFakeNetwork();
    const controller = new AbortController();
    const answer = network.http.post('/login', {}, { signal: controller.signal });
    controller.abort();
    const error = await failure(answer);
    expect(error.message).toBe('canceled');
    expect(error.code).toBe('ERR_CANCELED');
  });

  it("reports a request aborted before it started as 'canceled', and sends nothing", async () => {
    const network = createFakeNetwork();
    const controller = new AbortController();
    controller.abort();
    const error = await failure(network.http.post('/login', {}, { signal: controller.signal }));
    expect(error.message).toBe('canceled');
    expect(network.requests).toHaveLength(0);
  });

  it('reports a network failure as a network error', async () => {
    const network = createFakeNetwork();
    const answer = network.http.post('/login', {});
    network.onlyRequest().failNetwork();
    const error = await failure(answer);
    expect(error.message).toBe('Network Error');
    expect(error.code).toBe('ERR_NETWORK');
    expect(error.response).toBeUndefined();
  });
});

describe('reading a cookie', () => {
  it('finds the named cookie among others, decoded, keeping any = in its value', () => {
    expect(readCookie('a=1; XSRF-TOKEN=x%20y=z; b=2', 'XSRF-TOKEN')).toBe('x y=z');
  });

  it('does not take a cookie whose name only starts or ends the same', () => {
    expect(readCookie('XSRF-TOKEN-OLD=1; MY-XSRF-TOKEN=2', 'XSRF-TOKEN')).toBeNull();
  });

  it('gives null for a malformed encoding', () => {
    expect(readCookie('XSRF-TOKEN=%E0%A4%A', 'XSRF-TOKEN')).toBeNull();
  });

  it('sends other methods, with the XSRF header on every one and a body only when given', async () => {
    const network = createFakeNetwork({ cookies: 'XSRF-TOKEN=abc' });
    void network.http.request('GET', '/session');
    void network.http.request('DELETE', '/sessions/1');
    void network.http.request('PATCH', '/organizations/acme/members/u1', { role: 'admin' });
    expect(
      network.requests.map((request) => [request.method, request.init.body, request.headers['X-XSRF-TOKEN']]),
    ).toEqual([
      ['GET', undefined, 'abc'],
      ['DELETE', undefined, 'abc'],
      ['PATCH', '{"role":"admin"}', 'abc'],
    ]);
  });
});
