import { describe, expect, it } from '@jest/globals';
import { csvField, exportHeader, exportLine } from './history-export-format.js';
import type { TimelineEntry } from './timeline-entry.js';

const entry: TimelineEntry = {
  recordedAt: '2031-02-03T04:05:00.000Z',
  revision: 3,
  position: 17,
  type: 'MemberAdded',
  description: 'Member added: "ann", o\'brien@example.com as admin',
  actor: 'api-key:k1',
  actorName: 'API key “=cmd|/c calc”',
  correlationId: null,
};

/** Parses one CSV record as RFC 4180 says (quoted fields, doubled quotes, CRLF ends). */
function parseRecord(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < line.length; index += 1) {
    const character = line[index];
    if (quoted) {
      if (character === '"' && line[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (character === '"') quoted = false;
      else field += character;
    } else if (character === '"') quoted = true;
    else if (character === ',') {
      fields.push(field);
      field = '';
    } else if (character === '\r' && line[index + 1] === '\n') break;
    else field += character;
  }
  fields.push(field);
  return fields;
}

describe('CSV (RFC 4180)', () => {
  it('writes a header naming the fields, after a byte order mark, ending in CRLF', () => {
    expect(exportHeader('csv')).toBe(
      '\uFEFFrecordedAt,revision,position,type,description,actor,actorName,correlationId\r\n',
    );
  });

  it('quotes a field with a comma or a quote, doubling the quotes; numbers and empty values as they are', () => {
    const line = exportLine('csv', entry);

    expect(line.endsWith('\r\n')).toBe(true);
    expect(line).toContain('"Member added: ""ann"", o\'brien@example.com as admin"');
    expect(parseRecord(line)).toEqual([
      '2031-02-03T04:05:00.000Z',
      '3',
      '17',
      'MemberAdded',
      'Member added: "ann", o\'brien@example.com as admin',
      'api-key:k1',
      'API key “=cmd|/c calc”',
      '',
    ]);
  });

  it('quotes line breaks, so one event stays one record', () => {
    expect(csvField('Site added: A\r\nB (a.example)')).toBe('"Site added: A\r\nB (a.example)"');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
  });

  it.each(['=1+2', '+1', '-1', '@SUM(A1)', '\tx', '\rx', '=HYPERLINK("http://evil.example","x")'])(
    'neutralises a cell a spreadsheet would run as a formula: %j',
    (value) => {
      const field = csvField(value);
      const cell = parseRecord(field)[0] ?? '';

      expect(cell).toBe(`'${value}`);
    },
  );

  // What a spreadsheet skips before a formula character, and the forms it reads as one (OWASP, CSV injection).
  const hidden: [string, string][] = [
    ['a space', ' '],
    ['spaces and a tab', '  \t'],
    ['a line feed', '\n'],
    ['CR LF', '\r\n'],
    ['a no-break space', '\u00A0'],
    ['an ideographic space', '\u3000'],
    ['a zero-width space', '\u200B'],
    ['a zero-width joiner and non-joiner', '\u200D\u200C'],
    ['a word joiner', '\u2060'],
    ['a byte order mark', '\uFEFF'],
    ['a soft hyphen', '\u00AD'],
    ['left-to-right and right-to-left marks', '\u200E\u200F'],
    ['a right-to-left override', '\u202E'],
    ['a first-strong isolate and its pop', '\u2068\u2069'],
    ['an Arabic letter mark', '\u061C'],
    ['a control character', '\u0007'],
  ];
  const formulaStarts = [
    '=',
    '+',
    '-',
    '@',
    '\uFF1D',
    '\uFF0B',
    '\uFF0D',
    '\uFF20',
    '\uFE66',
    '\uFE62',
    '\uFE63',
    '\uFE6B',
  ];
  const dangerous: [string, string][] = [
    ...formulaStarts.map((start): [string, string] => [
      `${start} first`,
      `${start}HYPERLINK("http://evil.example","x")`,
    ]),
    ...hidden.flatMap(([what, prefix]) =>
      formulaStarts.map((start): [string, string] => [`${start} after ${what}`, `${prefix}${start}1+2`]),
    ),
    ['a tab first', '\tplain'],
    ['a CR first', '\rplain'],
  ];

  it.each(dangerous)('neutralises a formula behind what a spreadsheet skips: %s', (_what, value) => {
    expect(parseRecord(csvField(value))[0]).toBe(`'${value}`);
  });

  it.each([
    ['a formula character later in the text', 'Site added: =x (a.example)'],
    ['an address with + and -', 'ann+list-1@example.com'],
    ['a fullwidth sign later in the text', 'Plan \uFF1D Chorus'],
    ['a zero-width space before a letter', '\u200Bann@example.com'],
    ['a space before a digit', ' 42'],
    ['an apostrophe first', "'quoted"],
    ['an empty string', ''],
  ])('leaves a harmless cell unchanged: %s', (_what, value) => {
    expect(parseRecord(csvField(value))[0]).toBe(value);
  });

  it('leaves ordinary text and numbers alone', () => {
    expect(csvField('Plan assigned: Chorus teams')).toBe('Plan assigned: Chorus teams');
    expect(csvField(42)).toBe('42');
    expect(csvField(null)).toBe('');
  });
});

describe('JSON lines', () => {
  it('one JSON object per line, exactly the entry (no neutralising: it is data for tools)', () => {
    const line = exportLine('jsonl', entry);

    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1)).not.toContain('\n');
    expect(JSON.parse(line)).toEqual(entry);
    expect(exportHeader('jsonl')).toBe('');
  });
});
