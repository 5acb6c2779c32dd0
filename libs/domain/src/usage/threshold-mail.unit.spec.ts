import { describe, expect, it } from '@jest/globals';
import {
  decideThresholdMailClaim,
  evolveThresholdMail,
  initialThresholdMailState,
  thresholdMailDuty,
  type ThresholdMailEvent,
} from './threshold-mail.js';

const claimMs = 60_000;
const at = (seconds: number) => new Date(Date.UTC(2030, 2, 1, 0, 0, seconds));
const fold = (events: ThresholdMailEvent[]) => events.reduce(evolveThresholdMail, initialThresholdMailState());
const claimed = (sender: string, seconds: number): ThresholdMailEvent => ({
  type: 'ThresholdMailClaimed',
  data: { organizationId: 'acme', sender, at: at(seconds).toISOString() },
});

describe('the threshold mail', () => {
  it('is claimed by the first node that asks, and then its own to send while its claim is young', () => {
    const first = decideThresholdMailClaim(initialThresholdMailState(), {
      organizationId: 'acme',
      sender: 'node-a',
      now: at(0),
      claimMs,
    });
    expect(first).toEqual([claimed('node-a', 0)]);
    const state = fold(first);
    expect(thresholdMailDuty(state, 'node-a', at(10), claimMs)).toEqual({ kind: 'send' });
    expect(thresholdMailDuty(state, 'node-b', at(10), claimMs)).toEqual({ kind: 'theirs', until: at(60) });
    expect(decideThresholdMailClaim(state, { organizationId: 'acme', sender: 'node-b', now: at(10), claimMs })).toEqual(
      [],
    );
  });

  it('is taken over once a claim runs out (its node stopped), and renewed by its own node past half its time', () => {
    const state = fold([claimed('node-a', 0)]);
    expect(thresholdMailDuty(state, 'node-b', at(60), claimMs)).toEqual({ kind: 'claim' });
    expect(thresholdMailDuty(state, 'node-a', at(31), claimMs)).toEqual({ kind: 'claim' });
  });

  it('is settled once sent: nobody sends it again', () => {
    const state = fold([
      claimed('node-a', 0),
      {
        type: 'ThresholdMailSent',
        data: { organizationId: 'acme', to: ['ada@acme.example'], at: at(1).toISOString() },
      },
    ]);
    for (const sender of ['node-a', 'node-b'])
      expect(thresholdMailDuty(state, sender, at(600), claimMs)).toEqual({ kind: 'settled' });
    expect(
      decideThresholdMailClaim(state, { organizationId: 'acme', sender: 'node-b', now: at(600), claimMs }),
    ).toEqual([]);
  });
});
