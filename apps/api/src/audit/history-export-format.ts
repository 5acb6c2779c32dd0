// The history's download formats: JSON lines exactly as recorded, and CSV (RFC 4180) with formula injection
// neutralised.
import { TIMELINE_FIELDS, type TimelineEntry } from './timeline-entry.js';

export type ExportFormat = 'csv' | 'jsonl';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['csv', 'jsonl'];

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8; header=present',
  jsonl: 'application/x-ndjson; charset=utf-8',
};

/** OWASP, CSV injection: spreadsheets skip leading blanks and invisibles and read fullwidth = + - @ as these. */
const FORMULA_START = /^(?:[\t\r]|[\s\p{Cc}\p{Cf}]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20\uFE66\uFE62\uFE63\uFE6B])/u;

export function csvField(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

const CSV_LINE_END = '\r\n';

/** CSV starts with a byte order mark so that spreadsheets read it as UTF-8. */
export function exportHeader(format: ExportFormat): string {
  return format === 'csv' ? `\uFEFF${TIMELINE_FIELDS.join(',')}${CSV_LINE_END}` : '';
}

export function exportLine(format: ExportFormat, entry: TimelineEntry): string {
  if (format === 'jsonl') return `${JSON.stringify(entry)}\n`;
  return `${TIMELINE_FIELDS.map((field) => csvField(entry[field])).join(',')}${CSV_LINE_END}`;
}
