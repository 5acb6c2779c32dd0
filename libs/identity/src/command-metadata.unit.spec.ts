import { describe, expect, it } from '@jest/globals';
import { eventMetadata, newCommandContext } from '#event-store';
import { metadataOf } from './command-metadata.js';

describe('metadataOf', () => {
  const context = newCommandContext('anonymous', { clientIp: '203.0.113.7', userAgent: 'jest' });

  it("is the context's event metadata, the same frozen object for every event recorded under it", () => {
    const first = metadataOf(context);
    expect(first).toEqual(eventMetadata(context));
    expect(metadataOf(context)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
  });

  it('is built for each context object of its own (a sign-in records under the request and under its user)', () => {
    const asUser = { ...context, actor: 'user:u1' };
    expect(metadataOf(asUser)).toEqual({ ...eventMetadata(context), actor: 'user:u1' });
    expect(metadataOf(context).actor).toBe('anonymous');
  });
});
