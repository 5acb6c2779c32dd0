import { describe, expect, it, jest } from '@jest/globals';
import { buildEnvelope, envelopeEndpoint, parseStack, reportError, type ReporterEnvironment } from './sentry-reporter';

const environment = (): ReporterEnvironment & { fetch: jest.Mock<ReporterEnvironment['fetch']> } => ({
  fetch: jest.fn<ReporterEnvironment['fetch']>(async () => undefined),
  now: () => new Date('2025-03-04T05:06:07.500Z'),
  randomBytes: (length) => Uint8Array.from({ length }, (_, index) => index),
  userAgent: 'TestBrowser/1',
});

const EVENT_ID = '000102030405060708090a0b0c0d0e0f';

describe('the Sentry envelope endpoint', () => {
  it.each([
    ['https://abc123@o42.ingest.sentry.io/4507', 'https://o42.ingest.sentry.io/api/4507/envelope/'],
    ['https://abc123:secret@sentry.example:9000/7', 'https://sentry.example:9000/api/7/envelope/'],
    ['http://abc123@localhost:8000/prefix/path/3', 'http://localhost:8000/prefix/path/api/3/envelope/'],
  ])('is derived from %s', (dsn, endpoint) => {
    expect(envelopeEndpoint(dsn)).toBe(`${endpoint}?sentry_key=abc123&sentry_version=7&sentry_client=chorus-web%2F1`);
  });

  it.each(['', 'not a url', 'https://sentry.example/7', 'https://abc@sentry.example/', 'ftp://abc@sentry.example/7'])(
    'is null for the malformed DSN %j',
    (dsn) => {
      expect(envelopeEndpoint(dsn)).toBeNull();
    },
  );
});

describe('stack parsing', () => {
  it('reads V8 frames, oldest first', () => {
    const stack = [
      'TypeError: boom',
      '    at explode (https://chorus.example/assets/index-abc.js:1:2345)',
      '    at https://chorus.example/assets/index-abc.js:3:45',
    ].join('\n');
    expect(parseStack(stack)).toEqual([
      { filename: 'https://chorus.example/assets/index-abc.js', lineno: 3, colno: 45, in_app: true },
      {
        function: 'explode',
        filename: 'https://chorus.example/assets/index-abc.js',
        lineno: 1,
        colno: 2345,
        in_app: true,
      },
    ]);
  });

  it('reads Firefox and Safari frames', () => {
    expect(parseStack('explode@https://chorus.example/a.js:10:20\n@https://chorus.example/a.js:1:1')).toEqual([
      { filename: 'https://chorus.example/a.js', lineno: 1, colno: 1, in_app: true },
      { function: 'explode', filename: 'https://chorus.example/a.js', lineno: 10, colno: 20, in_app: true },
    ]);
  });
});

describe('the error event', () => {
  const report = { dsn: 'https://abc@sentry.example/7', releaseId: 'r-2025.03', url: 'https://chorus.example/login' };

  it('carries the release id, the page, the error and its stack', () => {
    const error = new TypeError('boom');
    error.stack = 'TypeError: boom\n    at explode (https://chorus.example/a.js:1:2)';
    const [header, item, event] = buildEnvelope({ ...report, error }, environment())
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(header).toEqual({ event_id: EVENT_ID, sent_at: '2025-03-04T05:06:07.500Z', dsn: report.dsn });
    expect(item).toEqual({ type: 'event' });
    expect(event).toEqual({
      event_id: EVENT_ID,
      timestamp: 1741064767.5,
      platform: 'javascript',
      level: 'error',
      release: 'r-2025.03',
      request: { url: 'https://chorus.example/login', headers: { 'User-Agent': 'TestBrowser/1' } },
      exception: {
        values: [
          {
            type: 'TypeError',
            value: 'boom',
            stacktrace: {
              frames: [
                { function: 'explode', filename: 'https://chorus.example/a.js', lineno: 1, colno: 2, in_app: true },
              ],
            },
          },
        ],
      },
    });
  });

  it.each([
    ['a message', 'Script error.', 'Script error.'],
    ['an object', { reason: 'x' }, '{"reason":"x"}'],
    ['undefined', undefined, 'undefined'],
  ])('describes %s thrown instead of an Error', (_, thrown, value) => {
    const event = JSON.parse(buildEnvelope({ ...report, error: thrown }, environment()).split('\n')[2]!);
    expect(event.exception.values).toEqual([{ type: 'Error', value }]);
  });

  it('is posted to the envelope endpoint as plain text, surviving the page being left', async () => {
    const env = environment();
    await reportError({ ...report, error: new Error('boom') }, env);
    expect(env.fetch).toHaveBeenCalledTimes(1);
    const [url, init] = env.fetch.mock.calls[0]!;
    expect(url).toBe(envelopeEndpoint(report.dsn));
    expect(init).toMatchObject({ method: 'POST', keepalive: true });
    expect(init.headers).toBeUndefined();
    expect(String(init.body).split('\n')).toHaveLength(3);
  });

  it('sends nothing for a malformed DSN', async () => {
    const env = environment();
    await reportError({ ...report, dsn: 'nonsense', error: new Error('boom') }, env);
    expect(env.fetch).not.toHaveBeenCalled();
  });
});
