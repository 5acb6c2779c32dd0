import { Controller, Get, Header, Inject, Param } from '@nestjs/common';
import { organizationStream } from '#domain';
import { EVENT_STORE, keyFingerprint, type EventStore } from '#event-store';
import { HISTORY_READERS, RequireAccess } from '../access/require-access.decorator.js';
import { Credentials, Operation } from '../http/operation.decorator.js';
import { validOrganizationId } from '../organizations/organization-requests.js';
import { historyProofAnswer, publicKeyAnswer } from './history-proof-answers.js';
import { HistoryCheckpoints } from './history-checkpoints.js';

export type HistoryProofAnswer = {
  /** Whether this store chains its events (the embedded store does; docs/history.md). */
  chained: boolean;
  /** The latest signed checkpoint: the log was verified up to its position when it was signed. */
  checkpoint: { position: string; time: string; key: string; reason: string } | null;
  /** Whether every event of this organization is at or before that position. */
  organizationCovered: boolean;
  /** This node's latest look at the chain found it broken: where, and how. */
  failure: { position: string; reason: string; at: string } | null;
};

/** The history's proof (docs/history.md): the key anyone checks a checkpoint with, and what the console shows. */
@Controller()
export class HistoryProofController {
  constructor(
    private readonly checkpoints: HistoryCheckpoints,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  @Get('history/public-key')
  @Credentials('none')
  @Header('Content-Type', 'application/x-pem-file')
  @Header('Cache-Control', 'public, max-age=300')
  @Operation({
    summary: "The public key (PEM, SubjectPublicKeyInfo) that checks the history's signed checkpoints",
    description:
      'For `chorus history:verify <export> --public-key <file>`, or `openssl pkeyutl -verify` (docs/history.md). Anyone may read it.',
    answer: publicKeyAnswer,
  })
  publicKey(): string {
    return this.checkpoints.key().publicPem;
  }

  @Get('organizations/:id/history/proof')
  @RequireAccess({ scope: 'audit:read', members: HISTORY_READERS })
  @Operation({
    summary:
      "How far the log is verified and signed: the latest checkpoint, and whether it covers this organization's history",
    answer: historyProofAnswer,
  })
  async proof(@Param('id', validOrganizationId) id: string): Promise<HistoryProofAnswer> {
    const [latest, last] = await Promise.all([
      this.checkpoints.latest(),
      this.store.readStream(organizationStream(id), { direction: 'backwards', maxCount: 1 }),
    ]);
    const lastPosition = last.found ? last.events[0]?.position : undefined;
    const verdict = this.checkpoints.lastVerdict;
    return {
      chained: this.checkpoints.chained,
      checkpoint:
        latest === undefined
          ? null
          : {
              position: latest.checkpoint.position,
              time: latest.checkpoint.time,
              key: keyFingerprint(latest.checkpoint.publicKey),
              reason: latest.checkpoint.reason,
            },
      organizationCovered: latest !== undefined && (lastPosition === undefined || lastPosition <= latest.position),
      failure:
        verdict === undefined || verdict.verified
          ? null
          : { position: verdict.failedAt, reason: verdict.failure, at: verdict.at },
    };
  }
}
