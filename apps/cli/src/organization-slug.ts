// The id `chorus org:create --name N` gives an organization when no --id is given: a slug of its name,
// so that the next command can name it as a person would guess (`Acme` -> `acme`, `Café Ünïon` -> `cafe-union`).
import { organizationIdSchema } from '#api';

const MAX_ID_LENGTH = 63;

/** The slug of a name, or undefined when the name has no letter or digit a slug can keep (e.g. '日本'). */
export function organizationSlug(name: string): string | undefined {
  const slug = name
    .normalize('NFKD')
    // Accents come apart from their letters under NFKD; dropping the marks keeps the letters.
    .replace(/\p{Mark}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, MAX_ID_LENGTH)
    .replace(/-+$/, '');
  return slug !== '' && organizationIdSchema.safeParse(slug).success ? slug : undefined;
}

/** `acme-2`, `acme-3`, ...: candidates for another organization whose slug is taken, within the id's length. */
export function* slugAlternatives(slug: string): Generator<string> {
  for (let suffix = 2; ; suffix += 1) {
    const tail = `-${suffix}`;
    yield `${slug.slice(0, MAX_ID_LENGTH - tail.length).replace(/-+$/, '')}${tail}`;
  }
}
