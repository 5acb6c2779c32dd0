import type { PageConfig } from '../config/page-config-slice';
import type { ErrorReport } from './sentry-reporter';

type ReporterModule = { reportError: (report: ErrorReport) => Promise<void> };

// A page stuck in an error loop must not flood the reporting service.
const MAX_REPORTS_PER_PAGE = 10;

/** The reporter is a chunk fetched at the first error: without a DSN or an error, it is never loaded. */
export function installErrorReporting(
  target: Window,
  { sentryDsn, releaseId }: Pick<PageConfig, 'sentryDsn' | 'releaseId'>,
  loadReporter: () => Promise<ReporterModule> = () => import('./sentry-reporter'),
): void {
  if (sentryDsn === null) return;
  let remaining = MAX_REPORTS_PER_PAGE;
  const report = (error: unknown) => {
    if (remaining-- <= 0) return;
    // Reporting must never raise an error of its own, or it would report itself.
    loadReporter()
      .then(({ reportError }) => reportError({ dsn: sentryDsn, releaseId, error, url: target.location.href }))
      .catch(() => undefined);
  };
  target.addEventListener('error', (event) => report(event.error ?? event.message));
  target.addEventListener('unhandledrejection', (event) => report(event.reason));
}
