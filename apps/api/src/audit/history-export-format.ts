// The history's two download formats, line by line: JSON lines (one TimelineEntry per line, exactly as
// recorded) and CSV (RFC 4180, for spreadsheets, with formula injection neutralised).
import { TIMELINE_FIELDS, type TimelineEntry } from './timeline-entry.js';

export type ExportFormat = 'csv' | 'jsonl';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['csv', 'jsonl'];

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8; header=present',
  jsonl: 'application/x-ndjson; charset=utf-8',
};

/**
 * A cell starting with one of these runs as a formula (OWASP, CSV injection), so it gets a leading `'`. Spreadsheets
 * skip leading blanks and invisible characters and read fullwidth and small = + - @ as these: they are looked through.
 */
const FORMULA_START = /^(?:[\t\r]|[\s\p{Cc}\p{Cf}]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20\uFE66\uFE62\uFE63\uFE6B])/u;

/** One CSV field: neutralised, then quoted when it holds a comma, a quote or a line break (quotes doubled). */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** Lines end with CRLF (RFC 4180). */
const CSV_LINE_END = '\r\n';

/**
 * The first line of the file. CSV starts with a byte order mark so that spreadsheets read it as UTF-8
 * (bücher.de, not bÃ¼cher.de); tools that read CSV as UTF-8 skip it (Python: encoding='utf-8-sig').
 */
export function exportHeader(format: ExportFormat): string {
  return format === 'csv' ? `\uFEFF${TIMELINE_FIELDS.join(',')}${CSV_LINE_END}` : '';
}

export function exportLine(format: ExportFormat, entry: TimelineEntry): string {
  if (format === 'jsonl') return `${JSON.stringify(entry)}\n`;
  return `${TIMELINE_FIELDS.map((field) => csvField(entry[field])).join(',')}${CSV_LINE_END}`;
}
