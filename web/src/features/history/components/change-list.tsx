import type { OrganizationChange } from '../api/history-contract';

const KIND_WORDS: Record<OrganizationChange['kind'], string> = {
  added: 'Added',
  removed: 'Removed',
  changed: 'Changed',
};

export function ChangeList({ changes }: { changes: readonly OrganizationChange[] }) {
  if (changes.length === 0)
    return <p className="muted">Nothing an auditor sees changed (the event repeated what was already so).</p>;
  return (
    <ul className="history-changes" aria-label="What changed">
      {changes.map((change) => (
        <li
          key={`${change.area}-${change.kind}-${change.text}`}
          className={`history-change history-change--${change.kind}`}
        >
          <span className="history-change__kind">{KIND_WORDS[change.kind]}</span>
          <span className="history-change__text">
            {change.subject}:{' '}
            {change.kind === 'changed' ? (
              <>
                <del>{change.before}</del> → <ins>{change.after}</ins>
              </>
            ) : change.kind === 'added' ? (
              <ins>{change.after}</ins>
            ) : (
              <del>{change.before}</del>
            )}
          </span>
        </li>
      ))}
    </ul>
  );
}
