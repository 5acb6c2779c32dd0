// Usage against the effective limit over time (docs/console.md, History), for users and sites:
// plain SVG step lines (a value holds until the next event changes it), and the same figures as a table
// for screen readers and anyone who wants the numbers.
import { RESOURCE_NAMES, formatNumber } from '../../../api/words';
import type { ResourceUse, UsagePoint } from '../api/history-contract';
import { EventTime } from './event-time';
import { formatLocalTime } from '../history-time';

type Resource = 'users' | 'contentSections';
const RESOURCE_WORDS: Record<Resource, string> = { users: RESOURCE_NAMES.users, contentSections: RESOURCE_NAMES.contentSections };

const WIDTH = 420;
const HEIGHT = 150;
const PAD = { top: 12, right: 12, bottom: 24, left: 32 };

const limitWords = (use: ResourceUse): string => (use.limit === null ? 'unlimited' : formatNumber(use.limit));

/** A step path through (x, y) points, extended to the right edge (the last value holds until now, the right edge). */
function steps(points: readonly (readonly [number, number | null])[], right: number): string[] {
  const paths: string[] = [];
  let path = '';
  points.forEach(([x, y], index) => {
    const nextX = points[index + 1]?.[0] ?? right;
    if (y === null) {
      if (path !== '') paths.push(path);
      path = '';
      return;
    }
    path += `${path === '' ? 'M' : 'L'}${x.toFixed(1)},${y.toFixed(1)}H${nextX.toFixed(1)}`;
  });
  if (path !== '') paths.push(path);
  return paths;
}

function ResourceChart({ points, resource, now: nowMs }: { points: readonly UsagePoint[]; resource: Resource; now: number }) {
  const first = Date.parse(points[0]?.at ?? '');
  // The axis ends at now (when the figures were read), so the flat end is the time since the last change.
  const end = Math.max(nowMs, Date.parse(points.at(-1)?.at ?? ''));
  const span = Math.max(1, end - first);
  const top = Math.max(1, ...points.map((point) => Math.max(point[resource].peak, point[resource].limit ?? 0)));
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const x = (at: string) => PAD.left + ((Date.parse(at) - first) / span) * plotWidth;
  const y = (value: number) => PAD.top + plotHeight - (value / top) * plotHeight;
  const right = WIDTH - PAD.right;
  const now = points.at(-1)?.[resource];
  const inUse = `${formatNumber(now?.usage ?? 0)} of ${now === undefined ? 'unlimited' : limitWords(now)}`;
  const since = formatLocalTime(points[0]?.at ?? new Date().toISOString());
  const summary = `${RESOURCE_WORDS[resource]} in use against the limit over time: ${inUse} now, from ${since}.`;
  return (
    <figure className="usage-chart">
      <figcaption className="usage-chart__caption">{RESOURCE_WORDS[resource]}</figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={summary} className="usage-chart__svg">
        {[0, top].map((value) => (
          <g key={value}>
            <line x1={PAD.left} x2={right} y1={y(value)} y2={y(value)} className="usage-chart__grid" />
            <text x={PAD.left - 6} y={y(value) + 4} textAnchor="end" className="usage-chart__tick">
              {formatNumber(value)}
            </text>
          </g>
        ))}
        {steps(points.map((point) => [x(point.at), point[resource].limit === null ? null : y(point[resource].limit as number)] as const), right).map((d) => (
          <path key={`limit-${d}`} d={d} className="usage-chart__limit" />
        ))}
        {steps(points.map((point) => [x(point.at), y(point[resource].usage)] as const), right).map((d) => (
          <path key={`usage-${d}`} d={d} className="usage-chart__usage" />
        ))}
        <text x={PAD.left} y={HEIGHT - 6} className="usage-chart__tick">
          {formatLocalTime(points[0]?.at ?? new Date().toISOString())}
        </text>
        <text x={right} y={HEIGHT - 6} textAnchor="end" className="usage-chart__tick">
          <title>{formatLocalTime(new Date(end).toISOString())}</title>
          now
        </text>
      </svg>
    </figure>
  );
}

/** `now`: when the figures were read, in milliseconds: the right end of the time axis. */
export function UsageChart({ points, merged, now }: { points: readonly UsagePoint[]; merged: boolean; now: number }) {
  if (points.length === 0) return <p className="muted">No usage recorded yet.</p>;
  return (
    <>
      <p className="usage-legend" aria-hidden="true">
        <span className="usage-legend__usage">In use</span>
        <span className="usage-legend__limit">Effective limit</span>
      </p>
      <div className="usage-charts">
        <ResourceChart points={points} resource="users" now={now} />
        <ResourceChart points={points} resource="contentSections" now={now} />
      </div>
      <details className="usage-table">
        <summary>Show the figures as a table</summary>
        <div className="usage-table__scroll">
          <table>
            <caption className="visually-hidden">Usage against the effective limit after each change</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Revision</th>
                <th scope="col">Users</th>
                <th scope="col">{RESOURCE_NAMES.contentSections}</th>
              </tr>
            </thead>
            <tbody>
              {points.map((point) => (
                <tr key={String(point.revision)}>
                  <td>
                    <EventTime at={point.at} />
                  </td>
                  <td>{String(point.revision)}</td>
                  <td>
                    {formatNumber(point.users.usage)} of {limitWords(point.users)}
                    {point.users.peak > point.users.usage && ` (peak ${formatNumber(point.users.peak)})`}
                  </td>
                  <td>
                    {formatNumber(point.contentSections.usage)} of {limitWords(point.contentSections)}
                    {point.contentSections.peak > point.contentSections.usage && ` (peak ${formatNumber(point.contentSections.peak)})`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {merged && <p className="muted">Changes close together in time are shown as one row with their peak.</p>}
      </details>
    </>
  );
}
