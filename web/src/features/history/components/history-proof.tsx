// How far the log is verified and signed (docs/history.md): the latest checkpoint, whether it covers this
// organization's last change, and a failure if this server found one.
import { Notice } from '../../../components/ui/notice';
import type { HistoryProof } from '../api/history-contract';
import { formatLocalTime } from '../history-time';

export function HistoryProofStatus({ proof }: { proof: HistoryProof | undefined }) {
  if (proof === undefined) return null;
  if (proof.failure !== null)
    return (
      <Notice tone="error">
        <p>
          <strong>The record fails verification at position {proof.failure.position}:</strong> {proof.failure.reason}.
          No checkpoint is signed until it is resolved. Checked {formatLocalTime(proof.failure.at)}.
        </p>
      </Notice>
    );
  if (!proof.chained)
    return (
      <p className="history-proof muted">
        This server’s store does not chain its events, so the history cannot be proven with a signature yet.
      </p>
    );
  if (proof.checkpoint === null)
    return (
      <p className="history-proof muted">
        No checkpoint is signed yet. Chorus signs one every hour or every 10,000 events, and one for each download with
        its proof.
      </p>
    );
  return (
    <p className="history-proof">
      <span className="history-proof__mark" aria-hidden="true">
        ✓
      </span>{' '}
      Verified and signed on {formatLocalTime(proof.checkpoint.time)}, up to position {proof.checkpoint.position} of the
      record.{' '}
      {proof.organizationCovered
        ? 'That covers every change below.'
        : 'The latest changes came after it: the download with its proof signs them.'}
    </p>
  );
}
