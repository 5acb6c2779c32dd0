import { describe, expect, it } from '@jest/globals';
import { bodyFields, schemaInWords } from './schema-in-words.js';

describe('a JSON schema in words', () => {
  it.each([
    [{ type: 'string', enum: ['csv', 'jsonl'] }, 'one of "csv", "jsonl"'],
    [{ type: 'integer', minimum: 1, maximum: 1_000_000 }, 'integer, from 1 to 1,000,000'],
    [{ type: 'string', maxLength: 320 }, 'string, at most 320 characters'],
    [{ type: 'string', minLength: 1, maxLength: 2048 }, 'string, 1 to 2,048 characters'],
    [{ type: 'string', pattern: '^\\d{1,19}$' }, 'string, matching ^\\d{1,19}$'],
    [{ type: 'string', format: 'date-time', pattern: '^(?:a|b)$' }, 'date and time (ISO 8601)'],
    [{ anyOf: [{ type: 'integer', minimum: 0 }, { type: 'null' }] }, 'integer, at least 0, or null'],
    [
      { type: 'array', maxItems: 40, items: { type: 'string', maxLength: 2048 } },
      'list of string, at most 2,048 characters, at most 40',
    ],
    [{ default: 'newest', type: 'string', enum: ['newest', 'oldest'] }, 'one of "newest", "oldest", default "newest"'],
    [{ type: 'boolean' }, 'boolean'],
    [{}, 'any value'],
  ])('%j: %s', (schema, words) => {
    expect(schemaInWords(schema)).toBe(words);
  });

  it("lists an object body's fields with whether each is required", () => {
    const schema = {
      type: 'object',
      properties: { line: { type: 'string', enum: ['classic', 'chorus'] }, serviceLevel: { type: 'string' } },
      required: ['line'],
    };
    expect(bodyFields(schema)).toEqual([
      { name: 'line', required: true, words: 'one of "classic", "chorus"' },
      { name: 'serviceLevel', required: false, words: 'string' },
    ]);
  });
});
