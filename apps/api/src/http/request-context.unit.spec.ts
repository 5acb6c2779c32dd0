// Requests are found by the correlation id their commands' events carry until they are answered, under the id they
// end up with (a caller's own, adopted once the caller is known), and no longer once answered.
import { describe, expect, it } from '@jest/globals';
import { callerCorrelationId } from './correlation-id.js';
import { beginAnswering, identifyCaller, requestsAnsweringUnder, type RequestContext } from './request-context.js';

const contextOf = (correlationId: string, sentCorrelationId?: string): RequestContext => ({
  correlationId,
  sentCorrelationId,
  clientIp: '203.0.113.7',
  userAgent: undefined,
  actor: undefined,
});

describe('requests answering under a correlation id', () => {
  it('finds a request under the id it adopts once its caller is known, and forgets it once answered', () => {
    const context = contextOf('chorus-own-1', 'okta-sent-1');
    const answered = beginAnswering(context);
    expect(requestsAnsweringUnder('chorus-own-1')).toEqual(new Set([context]));

    identifyCaller(context, 'scim:token-1');

    const adopted = callerCorrelationId('scim:token-1', 'okta-sent-1');
    expect(requestsAnsweringUnder('chorus-own-1')).toBeUndefined();
    expect(requestsAnsweringUnder(adopted)).toEqual(new Set([context]));
    answered();
    expect(requestsAnsweringUnder(adopted)).toBeUndefined();
  });

  it('keeps two requests a caller sent under one id apart, each until its own answer', () => {
    const [first, second] = [contextOf('chorus-own-2', 'same'), contextOf('chorus-own-3', 'same')];
    const [firstAnswered, secondAnswered] = [beginAnswering(first), beginAnswering(second)];
    identifyCaller(first, 'api-key:k1');
    identifyCaller(second, 'api-key:k1');

    const adopted = callerCorrelationId('api-key:k1', 'same');
    expect(requestsAnsweringUnder(adopted)).toEqual(new Set([first, second]));
    firstAnswered();
    expect(requestsAnsweringUnder(adopted)).toEqual(new Set([second]));
    secondAnswered();
    expect(requestsAnsweringUnder(adopted)).toBeUndefined();
  });
});
