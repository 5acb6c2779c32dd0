import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { installErrorReporting } from './error-reporting';
import type { ErrorReport } from './sentry-reporter';

// Each test installs on its own event target, so listeners never leak between tests.
const pageTarget = () => {
  const target = new EventTarget();
  return Object.assign(target, { location: { href: 'https://chorus.example/login?x=1' } }) as unknown as Window;
};

const reporter = () => {
  const reportError = jest.fn(async (_report: ErrorReport) => undefined);
  const load = jest.fn(async () => ({ reportError }));
  return { reportError, load };
};

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

const errorEvent = (error: unknown, message = 'Uncaught') => new ErrorEvent('error', { error, message });

const rejection = (reason: unknown) => Object.assign(new Event('unhandledrejection'), { reason });

describe('error reporting', () => {
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('loads nothing and listens to nothing without a DSN', async () => {
    const target = pageTarget();
    const { load } = reporter();
    const listen = jest.spyOn(target, 'addEventListener');
    installErrorReporting(target, { sentryDsn: null, releaseId: 'r1' }, load);
    target.dispatchEvent(errorEvent(new Error('boom')));
    await settle();
    expect(listen).not.toHaveBeenCalled();
    expect(load).not.toHaveBeenCalled();
  });

  it('loads nothing until an error happens', () => {
    const { load } = reporter();
    installErrorReporting(pageTarget(), { sentryDsn: 'https://k@sentry.example/1', releaseId: 'r1' }, load);
    expect(load).not.toHaveBeenCalled();
  });

  it('reports an uncaught error with the DSN, the release id and the page', async () => {
    const target = pageTarget();
    const { load, reportError } = reporter();
    installErrorReporting(target, { sentryDsn: 'https://k@sentry.example/1', releaseId: 'r1' }, load);
    const error = new Error('boom');
    target.dispatchEvent(errorEvent(error));
    await settle();
    expect(reportError).toHaveBeenCalledWith({
      dsn: 'https://k@sentry.example/1',
      releaseId: 'r1',
      error,
      url: 'https://chorus.example/login?x=1',
    });
  });

  it('reports the message of an error event without an error object', async () => {
    const target = pageTarget();
    const { load, reportError } = reporter();
    installErrorReporting(target, { sentryDsn: 'https://k@sentry.example/1', releaseId: 'r1' }, load);
    target.dispatchEvent(errorEvent(undefined, 'Script error.'));
    await settle();
    expect(reportError.mock.calls[0]![0].error).toBe('Script error.');
  });

  it('reports an unhandled rejection', async () => {
    const target = pageTarget();
    const { load, reportError } = reporter();
    installErrorReporting(target, { sentryDsn: 'https://k@sentry.example/1', releaseId: 'r1' }, load);
    target.dispatchEvent(rejection('lost'));
    await settle();
    expect(reportError.mock.calls[0]![0].error).toBe('lost');
  });

  it('reports at most ten errors per page', async () => {
    const target = pageTarget();
    const { load, reportError } = reporter();
    installErrorReporting(target, { sentryDsn: 'https://k@sentry.example/1', releaseId: 'r1' }, load);
    for (let count = 0; count < 15; count += 1) target.dispatchEvent(errorEvent(new Error(`boom ${count}`)));
    await settle();
    expect(reportError).toHaveBeenCalledTimes(10);
  });

  // Jest fails a test that leaves a promise rejection unhandled.
  it('swallows a failure of the reporter itself', async () => {
    const target = pageTarget();
    const reportError = jest.fn(async () => Promise.reject(new Error('offline')));
    installErrorReporting(target, { sentryDsn: 'https://k@sentry.example/1', releaseId: 'r1' }, async () => ({
      reportError,
    }));
    target.dispatchEvent(errorEvent(new Error('boom')));
    await settle();
    expect(reportError).toHaveBeenCalledTimes(1);
  });
});
