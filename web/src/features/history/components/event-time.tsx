import { formatLocalTime, formatUtc } from '../history-time';

/** UTC on hover, and for screen readers through the title. */
export function EventTime({ at }: { at: string }) {
  return (
    <time dateTime={at} title={formatUtc(at)}>
      {formatLocalTime(at)}
    </time>
  );
}
