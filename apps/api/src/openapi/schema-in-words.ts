// The JSON schemas of /docs said in a few words each (type, allowed values, bounds) instead of raw JSON:
// the page is for people; openapi.json keeps the schemas for tools.
type Schema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  default?: unknown;
  description?: string;
};

const list = (values: unknown[]): string => values.map((value) => JSON.stringify(value)).join(', ');
const count = (value: number): string => value.toLocaleString('en-US');

/** One schema in words: `integer from 1 to 1,000,000`, `one of "csv", "jsonl"`, `string, at most 320 characters`. */
export function schemaInWords(input: unknown): string {
  const schema = (input ?? {}) as Schema;
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants !== undefined) return variants.map(schemaInWords).join(', or ');
  const parts: string[] = [];
  if (schema.const !== undefined) parts.push(`exactly ${JSON.stringify(schema.const)}`);
  else if (schema.enum !== undefined) parts.push(`one of ${list(schema.enum)}`);
  else if (schema.type === 'array')
    parts.push(
      `list of ${schemaInWords(schema.items)}${schema.maxItems === undefined ? '' : `, at most ${count(schema.maxItems)}`}`,
    );
  else if (schema.type === 'object' && schema.properties !== undefined)
    parts.push(`object (${Object.keys(schema.properties).join(', ')})`);
  else
    parts.push(
      schema.format === 'date-time' ? 'date and time (ISO 8601)' : [schema.type ?? 'any value'].flat().join(' or '),
    );
  if (schema.minimum !== undefined && schema.maximum !== undefined)
    parts.push(`from ${count(schema.minimum)} to ${count(schema.maximum)}`);
  else if (schema.minimum !== undefined) parts.push(`at least ${count(schema.minimum)}`);
  else if (schema.maximum !== undefined) parts.push(`at most ${count(schema.maximum)}`);
  if (schema.maxLength !== undefined)
    parts.push(
      `${schema.minLength === undefined ? '' : `${count(schema.minLength)} to `}${schema.minLength === undefined ? 'at most ' : ''}${count(schema.maxLength)} characters`,
    );
  // A date-time's pattern is the calendar spelled out as a regular expression: the words above say it better.
  if (schema.pattern !== undefined && schema.format !== 'date-time') parts.push(`matching ${schema.pattern}`);
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  return parts.join(', ');
}

/** A JSON body's fields as table rows: name, required or not, what it takes. */
export function bodyFields(input: unknown): { name: string; required: boolean; words: string }[] {
  const schema = (input ?? {}) as Schema;
  if (schema.properties === undefined) return [{ name: '(body)', required: true, words: schemaInWords(schema) }];
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).map(([name, property]) => ({
    name,
    required: required.has(name),
    words: schemaInWords(property),
  }));
}
