import { describe, it } from '@jest/globals';
import { deciderSpec } from '../testing/decider-spec.js';
import { joinRefusalNoticeDecider, type JoinRefusalNoticeOwed } from './join-refusal-notice.js';

const spec = deciderSpec(joinRefusalNoticeDecider);
const owed = (on: string): JoinRefusalNoticeOwed => ({
  type: 'JoinRefusalNoticeOwed',
  data: { organizationId: 'org_acme', domain: 'acme.example', on, userId: 'usr_rex' },
});
const owe = (on: string) => ({ type: 'OweJoinRefusalNotice', data: owed(on).data }) as const;

describe('the notice of a refused join', () => {
  it('is owed on the first refusal', () => {
    spec
      .given([])
      .when(owe('2026-11-26'))
      .then([owed('2026-11-26')]);
  });

  it('is owed once a day, however often the person signs in', () => {
    spec
      .given([owed('2026-11-26')])
      .when(owe('2026-11-26'))
      .then([]);
  });

  it('is owed again on a later day', () => {
    spec
      .given([owed('2026-11-25'), owed('2026-11-26')])
      .when(owe('2026-11-27'))
      .then([owed('2026-11-27')]);
  });
});
