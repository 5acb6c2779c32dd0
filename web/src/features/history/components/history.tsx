// The audit explorer (docs/console.md, History).
import { useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import type { Organization, Position } from '../../../api/contract';
import { problemOf } from '../../../api/problem';
import { refusalMessage } from '../../../api/refusals';
import { PageHeader } from '../../../components/layout/page-header';
import { Section } from '../../../components/layout/section';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { TextField } from '../../../components/ui/text-field';
import {
  HISTORY_PUBLIC_KEY_URL,
  historyExportUrl,
  historyProofExportUrl,
  useGetHistoryFiltersQuery,
  useGetHistoryProofQuery,
  useGetTimelineQuery,
  useGetUsageSeriesQuery,
} from '../api/history-api';
import type { TimelineFilter } from '../api/history-contract';
import { filterOfSearch, searchOfFilter } from '../history-search';
import { formatLocalTime, instantOfLocalInput } from '../history-time';
import { Correlation } from './correlation';
import { HistoryProofStatus } from './history-proof';
import { EventDetails } from './event-details';
import { StateAsOf } from './state-as-of';
import { Timeline } from './timeline';
import { TimelineFilters } from './timeline-filters';
import { SignInSecurity } from './sign-in-security';
import { UsageChart } from './usage-chart';
import '../history.css';

const PAGE_SIZE = 25;

type Shown =
  | { kind: 'event'; revision: Position }
  | { kind: 'asOf'; instant: string }
  | { kind: 'correlation'; correlationId: string }
  | undefined;

function detailsTitle(shown: Shown): string {
  if (shown === undefined) return 'Details';
  if (shown.kind === 'event') return `Revision ${String(shown.revision)}`;
  if (shown.kind === 'asOf') return `As of ${formatLocalTime(shown.instant)}`;
  return `Correlation ${shown.correlationId}`;
}

type Cursors = (Position | undefined)[];

export function History({ organization }: { organization: Organization }) {
  const [search, setSearch] = useSearchParams();
  const filter = filterOfSearch(search);
  const filterKey = searchOfFilter(filter).toString();
  // "Newer events" goes back one cursor; another filter starts at the newest page.
  const [paging, setPaging] = useState<{ filterKey: string; cursors: Cursors }>({ filterKey, cursors: [undefined] });
  const cursors: Cursors = paging.filterKey === filterKey ? paging.cursors : [undefined];
  const setCursors = (next: (seen: Cursors) => Cursors) => setPaging({ filterKey, cursors: next(cursors) });
  const [shown, setShown] = useState<Shown>(undefined);
  const [asOfInput, setAsOfInput] = useState('');
  const [asOfMessage, setAsOfMessage] = useState('');
  const after = cursors.at(-1);
  const timeline = useGetTimelineQuery({
    organizationId: organization.id,
    filter,
    limit: PAGE_SIZE,
    ...(after === undefined ? {} : { after }),
  });
  const choices = useGetHistoryFiltersQuery(organization.id);
  const usage = useGetUsageSeriesQuery(organization.id);
  const proof = useGetHistoryProofQuery(organization.id);
  const provable = proof.data?.chained === true;
  const page = timeline.currentData;
  const details = useRef<HTMLDivElement>(null);

  // On a narrow screen the details are below the timeline: bring them into view when something is chosen.
  const show = (next: Shown) => {
    setShown(next);
    if (window.matchMedia?.('(max-width: 1024px)').matches)
      requestAnimationFrame(() => details.current?.scrollIntoView({ block: 'start' }));
  };

  const applyFilter = (next: TimelineFilter) => setSearch(searchOfFilter(next));

  const showAsOf = (event: FormEvent) => {
    event.preventDefault();
    const instant = instantOfLocalInput(asOfInput);
    if (instant === undefined) return setAsOfMessage('Enter a date and time.');
    // The server refuses it too (400): a state "as of" a moment not reached yet would be a guess.
    if (Date.parse(instant) > Date.now())
      return setAsOfMessage('Choose a moment in the past: the history does not know the future yet.');
    setAsOfMessage('');
    show({ kind: 'asOf', instant });
  };

  return (
    <>
      <PageHeader title="History">
        Every change to {organization.name} as recorded, who made it and what it changed.
      </PageHeader>
      <div
        className="history-downloads"
        aria-label={filterKey === '' ? 'Download the whole history' : 'Download the events these filters select'}
        role="group"
      >
        <a className="button button--secondary" href={historyExportUrl(organization.id, 'jsonl', filter)} download>
          Download JSON lines
        </a>
        <a className="button button--secondary" href={historyExportUrl(organization.id, 'csv', filter)} download>
          Download CSV
        </a>
        {filterKey === '' && provable && (
          <a className="button button--secondary" href={historyProofExportUrl(organization.id)} download>
            Download with proof
          </a>
        )}
        {filterKey !== '' && (
          <p className="muted history-downloads__scope">Only the events these filters select, as listed below.</p>
        )}
      </div>
      <HistoryProofStatus proof={proof.data} />
      {filterKey === '' && provable && (
        <p className="muted history-proof__how">
          The download with proof carries each event’s hash and ends with a signed checkpoint. Check it offline with{' '}
          <code>chorus history:verify</code> and the{' '}
          <a href={HISTORY_PUBLIC_KEY_URL} download="chorus-history-public-key.pem">
            public key
          </a>
          .
        </p>
      )}
      <div className="history-layout">
        <Section
          title="Events"
          description="Newest first. Select an event to see what it changed."
          className="history-layout__events"
        >
          <TimelineFilters key={filterKey} choices={choices.data} applied={filter} onApply={applyFilter} />
          <FormAlert>{timeline.error !== undefined && refusalMessage(problemOf(timeline.error))}</FormAlert>
          {page === undefined ? (
            !timeline.error && <p className="muted">Loading the history…</p>
          ) : page.entries.length === 0 ? (
            <p className="empty">No event matches these filters.</p>
          ) : (
            <Timeline
              entries={page.entries}
              selected={shown?.kind === 'event' ? shown.revision : undefined}
              onSelect={(entry) => show({ kind: 'event', revision: entry.revision })}
              onOpenCorrelation={(correlationId) => show({ kind: 'correlation', correlationId })}
            />
          )}
          <nav className="history-pager" aria-label="Pages of events">
            <Button
              type="button"
              variant="secondary"
              className="button--small"
              disabled={cursors.length === 1}
              onClick={() => setCursors((seen) => seen.slice(0, -1))}
            >
              Newer events
            </Button>
            <span className="muted">Page {cursors.length}</span>
            <Button
              type="button"
              variant="secondary"
              className="button--small"
              disabled={page?.next === null || page?.next === undefined}
              onClick={() =>
                setCursors((seen) => (page?.next === null || page?.next === undefined ? seen : [...seen, page.next]))
              }
            >
              Older events
            </Button>
          </nav>
        </Section>
        <div className="history-layout__side">
          <Section title="State as of" description="The organization as it was at an instant, in your time zone.">
            <form className="history-as-of" aria-label="State as of" onSubmit={showAsOf} noValidate>
              <TextField
                label="As of"
                type="datetime-local"
                step={1}
                value={asOfInput}
                onChange={(event) => setAsOfInput(event.target.value)}
              />
              <Button type="submit" variant="secondary">
                Show state
              </Button>
              <p className="form__status" role="alert">
                {asOfMessage}
              </p>
            </form>
          </Section>
          <div ref={details} className="history-layout__details">
            <Section title={detailsTitle(shown)}>
              {shown === undefined && (
                <p className="muted">Select an event, open a correlation id, or choose an instant.</p>
              )}
              {shown?.kind === 'event' && <EventDetails organizationId={organization.id} revision={shown.revision} />}
              {shown?.kind === 'asOf' && <StateAsOf organizationId={organization.id} instant={shown.instant} />}
              {shown?.kind === 'correlation' && (
                <Correlation organizationId={organization.id} correlationId={shown.correlationId} />
              )}
            </Section>
          </div>
        </div>
      </div>
      <Section
        title="Usage against the limit"
        description="Users and sites in use after each change, against the limit then."
      >
        <FormAlert>{usage.error !== undefined && refusalMessage(problemOf(usage.error))}</FormAlert>
        {usage.data !== undefined && (
          <UsageChart points={usage.data.points} merged={usage.data.merged} now={usage.fulfilledTimeStamp ?? 0} />
        )}
      </Section>
      <Section
        className="history-security"
        title="Sign-in security"
        description="Members’ two-step sign-in: second factors set up and removed, recovery codes made and used, failed second steps."
      >
        <SignInSecurity organizationId={organization.id} />
      </Section>
    </>
  );
}
