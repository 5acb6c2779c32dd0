// An organization's members as the console reads them: a page at a time from the server, found there by part of an
// address, so what a page costs is one page whatever the organization's size (a directory can bring thousands).
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { problemOf } from '../../api/problem';
import { refusalMessage } from '../../api/refusals';
import { Button } from '../ui/button';
import { FormAlert } from '../ui/form-alert';
import { TextField } from '../ui/text-field';

// Past a screenful, one finds people by address.
const FIND_FROM = 10;
// Typing is asked of the server once it pauses, not at every key.
const SEARCH_PAUSE_MS = 250;
const count = (n: number) => n.toLocaleString('en-US');

export type MemberPage<T> = { members: T[]; total: number; next: string | null };

/** What an RTK Query infinite query of member pages gives. */
export type MemberPagesRead<P> = {
  data?: { pages: P[] };
  error?: unknown;
  isFetching: boolean;
  isFetchingNextPage: boolean;
  hasNextPage: boolean;
  fetchNextPage: () => unknown;
};

function summaryOf(query: string, total: number, shown: number): string {
  if (total === 0) return query === '' ? '' : `No member’s address contains “${query}”.`;
  if (total > shown) return `Showing ${count(shown)} of ${count(total)} ${query === '' ? 'members' : 'matches'}.`;
  if (query === '') return '';
  return `${count(total)} ${total === 1 ? 'member matches' : 'members match'}.`;
}

/** The value once it has stayed the same for a moment. */
function usePaused(value: string, milliseconds: number): string {
  const [paused, setPaused] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setPaused(value), milliseconds);
    return () => clearTimeout(timer);
  }, [value, milliseconds]);
  return paused;
}

type MemberPagesOptions<T, P extends MemberPage<T>> = {
  /** How many members the organization has: past ten, the search field. */
  memberCount: number;
  /** Names the search among others on the page. */
  label: string;
  /** The element id of a member's row, which takes the focus when "Show more" brings it. */
  rowId: (member: T) => string;
  /** The infinite query's hook, asked with what was typed ('' for everyone). */
  useRead: (q: string) => MemberPagesRead<P>;
  /** What "Show more members" adds for screen readers, where two lists share a page. */
  moreContext?: string;
  /** A read refused, in words (by default as any refusal). */
  refusal?: (error: unknown) => ReactNode;
};

const inWords = (error: unknown): ReactNode => refusalMessage(problemOf(error));

type MemberPages<T, P> = {
  /** The members of the pages read so far, in order. */
  shown: readonly T[];
  /** The page read last, for what the route answers beside the members. */
  latest: P | undefined;
  /** Whether the list has been read (the first page arrived). */
  read: boolean;
  /** The search field, past ten members (and while something is typed). */
  field: ReactNode;
  /** Loading, or the refusal in words, before the list. */
  state: ReactNode;
  /** How many are shown of how many, said to screen readers as it changes; and "Show more members". */
  footer: ReactNode;
};

export function useMemberPages<T, P extends MemberPage<T> = MemberPage<T>>({
  memberCount,
  label,
  rowId,
  useRead,
  moreContext,
  refusal = inWords,
}: MemberPagesOptions<T, P>): MemberPages<T, P> {
  const [query, setQuery] = useState('');
  const q = usePaused(query.trim(), SEARCH_PAUSE_MS);
  const pages = useRead(q);
  const shown = useMemo(() => pages.data?.pages.flatMap((page) => page.members) ?? [], [pages.data]);
  const latest = pages.data?.pages.at(-1);
  const total = latest?.total ?? 0;
  // A list that shrank to ten (a removal) keeps its field while something is typed: no row stays hidden by a field
  // that is gone.
  const searchable = memberCount > FIND_FROM || query !== '';
  // "Show more" brings rows below the button's place: the focus goes to the first of them.
  const firstNew = useRef<number | null>(null);

  useEffect(() => {
    const at = firstNew.current;
    const member = at === null ? undefined : shown[at];
    if (member === undefined) return;
    firstNew.current = null;
    document.getElementById(rowId(member))?.focus();
  }, [shown, rowId]);

  const read = pages.data !== undefined;
  return {
    shown,
    latest,
    read,
    field: searchable && (
      <TextField
        label={label}
        hint="Type part of an address."
        type="search"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
    ),
    state:
      pages.error !== undefined ? (
        <FormAlert>{refusal(pages.error)}</FormAlert>
      ) : (
        !read && <div className="page-loading page-loading--inline" role="status" aria-label="Loading members" />
      ),
    footer: read && (
      <>
        {searchable && (
          <p className="muted" role="status">
            {summaryOf(q, total, shown.length)}
          </p>
        )}
        {pages.hasNextPage && (
          <div className="form__actions">
            <Button
              type="button"
              variant="secondary"
              busy={pages.isFetchingNextPage}
              onClick={() => {
                firstNew.current = shown.length;
                void pages.fetchNextPage();
              }}
            >
              Show more members
              {moreContext !== undefined && <span className="visually-hidden"> {moreContext}</span>}
            </Button>
          </div>
        )}
      </>
    ),
  };
}
