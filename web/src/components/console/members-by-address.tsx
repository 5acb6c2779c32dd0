import { useState, type ReactNode } from 'react';
import { TextField } from '../ui/text-field';

// A directory can bring thousands of people: past a screenful, one finds them by address, and the page stays quick.
const FIND_FROM = 10;
const SHOWN_AT_MOST = 100;
const count = (n: number) => n.toLocaleString('en-US');

function summaryOf(query: string, found: number, shown: number): string {
  if (found === 0) return `No member’s address contains “${query}”.`;
  if (found > shown)
    return `Showing the first ${count(shown)} of ${count(found)} ${query === '' ? 'members' : 'matches'}. Type more of an address to find someone.`;
  if (query === '') return '';
  return `${count(found)} ${found === 1 ? 'member matches' : 'members match'}.`;
}

type MembersByAddress<T> = {
  /** The members to show: those whose address holds what was typed, at most a hundred. */
  shown: readonly T[];
  /** The search field, past ten members. */
  field: ReactNode;
  /** How many are shown of how many, said to screen readers as it changes. */
  summary: ReactNode;
};

/** A list of members found by part of an address; `label` names the search among others on the page. */
export function useMembersByAddress<T extends { email: string }>(
  members: readonly T[],
  label: string,
): MembersByAddress<T> {
  const [query, setQuery] = useState('');
  // A list that shrank to ten (a removal) drops its field, and what was typed stops filtering: no row stays hidden by a
  // field that is gone.
  if (members.length <= FIND_FROM) return { shown: members, field: null, summary: null };
  const wanted = query.trim().toLowerCase();
  const found = wanted === '' ? members : members.filter((member) => member.email.toLowerCase().includes(wanted));
  const shown = found.slice(0, SHOWN_AT_MOST);
  return {
    shown,
    field: (
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
    summary: (
      <p className="muted" role="status">
        {summaryOf(query.trim(), found.length, shown.length)}
      </p>
    ),
  };
}
