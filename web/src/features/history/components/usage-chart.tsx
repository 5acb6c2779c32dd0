// Usage against the effective limit over time (docs/console.md, History), for users and sites:
// plain SVG step lines (a value holds until the next event changes it), and the same figures as a table
// for screen readers and anyone who wants the numbers.
import { useState } from 'react';
import { RESOURCE_NAMES, formatNumber } from '../../../api/words';
import { SelectField } from '../../../components/ui/select-field';
import type { UsagePoint } from '../api/history-contract';
import { EventTime } from './event-time';
import { formatLocalTime } from '../history-time';
import {
  momentaryLimits,
  pointsInRange,
  USAGE_RANGES,
  valueScale,
  type UsageRange,
  type UsageResource as Resource,
} from '../usage-scale';

const RESOURCE_WORDS: Record<Resource, string> = {
  users: RESOURCE_NAMES.users,
  contentSections: RESOURCE_NAMES.contentSections,
};

const WIDTH = 420;
const HEIGHT = 160;
const PAD = { top: 22, right: 12, bottom: 24, left: 40 };

/** "2 of 5", "2 of unlimited", "2 in use, no plan"; a limit that held only for an instant says so. */
function figureWords(point: UsagePoint, resource: Resource, momentary: boolean): string {
  const { usage, limit } = point[resource];
  if (!point.plan) return `${formatNumber(usage)} in use, no plan`;
  return `${formatNumber(usage)} of ${limit === null ? 'unlimited' : formatNumber(limit)}${momentary ? ' (for an instant)' : ''}`;
}

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

function ResourceChart({
  points,
  resource,
  start,
  end,
}: {
  points: readonly UsagePoint[];
  resource: Resource;
  start: number;
  end: number;
}) {
  const span = Math.max(1, end - start);
  const momentary = momentaryLimits(points, resource);
  const { top, aboveScale } = valueScale(points, resource, momentary);
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const x = (at: string) => PAD.left + ((Date.parse(at) - start) / span) * plotWidth;
  const y = (value: number) => PAD.top + plotHeight - (Math.min(value, top) / top) * plotHeight;
  const lineAt = (limit: number | null, instant: boolean): number | null =>
    limit === null || instant || limit > top ? null : y(limit);
  const right = WIDTH - PAD.right;
  const last = points.at(-1);
  const inUse = last === undefined ? '0' : figureWords(last, resource, false);
  const since = formatLocalTime(new Date(start).toISOString());
  const instants = points.flatMap((point, index) =>
    momentary[index] === true ? [{ point, limit: point[resource].limit as number }] : [],
  );
  const summary = [
    `${RESOURCE_WORDS[resource]} in use against the limit over time: ${inUse} now, from ${since}.`,
    aboveScale === null ? '' : ` The limit, ${formatNumber(aboveScale)}, is far above the scale.`,
    ...instants.map(
      ({ point, limit }) =>
        ` A limit of ${formatNumber(limit)} held only for an instant at ${formatLocalTime(point.at)}.`,
    ),
  ].join('');
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
        {aboveScale !== null && (
          <text x={right} y={PAD.top - 8} textAnchor="end" className="usage-chart__tick usage-chart__above">
            Limit {formatNumber(aboveScale)}, far above ↑
          </text>
        )}
        {/* A limit that held only for an instant is no line to read against (a dot where it was), nor one above the scale (named). */}
        {steps(
          points.map(
            (point, index) => [x(point.at), lineAt(point[resource].limit, momentary[index] === true)] as const,
          ),
          right,
        ).map((d) => (
          <path key={`limit-${d}`} d={d} className="usage-chart__limit" />
        ))}
        {steps(
          points.map((point) => [x(point.at), y(point[resource].usage)] as const),
          right,
        ).map((d) => (
          <path key={`usage-${d}`} d={d} className="usage-chart__usage" />
        ))}
        {instants.map(({ point, limit }) => (
          <g key={`instant-${String(point.revision)}`}>
            <circle cx={x(point.at)} cy={y(limit)} r={4} className="usage-chart__instant">
              <title>{`A limit of ${formatNumber(limit)} for an instant at ${formatLocalTime(point.at)}`}</title>
            </circle>
            {/* Its value beside it: above the scale, the dot sits on the top edge. */}
            <text x={x(point.at) + 7} y={y(limit) - 6} className="usage-chart__instant-label">
              {formatNumber(limit)}
            </text>
          </g>
        ))}
        <text x={PAD.left} y={HEIGHT - 6} className="usage-chart__tick">
          {since}
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
export function UsageChart({
  points: all,
  merged,
  now,
}: {
  points: readonly UsagePoint[];
  merged: boolean;
  now: number;
}) {
  const [range, setRange] = useState<UsageRange>('all');
  if (all.length === 0) return <p className="muted">No usage recorded yet.</p>;
  const end = Math.max(now, Date.parse(all.at(-1)?.at ?? ''));
  const { points, start } = pointsInRange(all, range, end);
  const instants = {
    users: momentaryLimits(points, 'users'),
    contentSections: momentaryLimits(points, 'contentSections'),
  };
  const anyInstant = instants.users.includes(true) || instants.contentSections.includes(true);
  return (
    <>
      <div className="usage-controls">
        <SelectField
          label="Show"
          name="range"
          value={range}
          options={USAGE_RANGES}
          onChange={(event) => setRange(event.target.value as UsageRange)}
        />
        <p className="usage-legend" aria-hidden="true">
          <span className="usage-legend__usage">In use</span>
          <span className="usage-legend__limit">Effective limit</span>
          {anyInstant && <span className="usage-legend__instant">A limit for an instant</span>}
        </p>
      </div>
      <div className="usage-charts">
        <ResourceChart points={points} resource="users" start={start} end={end} />
        <ResourceChart points={points} resource="contentSections" start={start} end={end} />
      </div>
      <p className="muted usage-note">
        The scale fits what this range shows.
        {anyInstant &&
          ' A limit that held for under a minute, such as one set while the organization was set up, is a dot, not a line.'}
      </p>
      <details className="usage-table">
        <summary>Show the figures as a table</summary>
        {/* Scrolls when long: focusable, so the keyboard scrolls it too. */}
        <div className="usage-table__scroll" tabIndex={0} role="region" aria-label="Usage figures">
          <table>
            <caption className="visually-hidden">Usage against the effective limit after each change</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Revision</th>
                <th scope="col">{RESOURCE_NAMES.users}</th>
                <th scope="col">{RESOURCE_NAMES.contentSections}</th>
              </tr>
            </thead>
            <tbody>
              {points.map((point, index) => (
                <tr key={String(point.revision)}>
                  <td>
                    <EventTime at={point.at} />
                  </td>
                  <td>{String(point.revision)}</td>
                  <td>
                    {figureWords(point, 'users', instants.users[index] === true)}
                    {point.users.peak > point.users.usage && ` (peak ${formatNumber(point.users.peak)})`}
                  </td>
                  <td>
                    {figureWords(point, 'contentSections', instants.contentSections[index] === true)}
                    {point.contentSections.peak > point.contentSections.usage &&
                      ` (peak ${formatNumber(point.contentSections.peak)})`}
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
