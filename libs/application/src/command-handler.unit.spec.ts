import { describe, expect, it } from '@jest/globals';
import { eventMetadata, newCommandContext } from './command-context.js';

describe('eventMetadata', () => {
  const context = {
    ...newCommandContext('user:u1', { clientIp: '203.0.113.7', userAgent: 'jest' }, 'c-1'),
    causationId: 'e-9',
  };

  it('is the origin, then who and why, then the command: the keys in the order the stored JSON keeps', () => {
    expect(JSON.stringify(eventMetadata(context, 'AddMember'))).toBe(
      '{"clientIp":"203.0.113.7","userAgent":"jest","actor":"user:u1","correlationId":"c-1","causationId":"e-9","commandType":"AddMember"}',
    );
    expect(Object.keys(eventMetadata(context))).toEqual([
      'clientIp',
      'userAgent',
      'actor',
      'correlationId',
      'causationId',
    ]);
  });

  it("lets the context's own fields win over an origin's of the same name, and copies the origin", () => {
    const origin = { actor: 'forged', cliCommand: 'user:create' };
    const metadata = eventMetadata(newCommandContext('cli', origin, 'c-2'));
    expect(metadata).toEqual({ actor: 'cli', cliCommand: 'user:create', correlationId: 'c-2', causationId: 'c-2' });
    expect(origin.actor).toBe('forged');
  });
});
