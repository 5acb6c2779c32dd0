import { describe, expect, it } from '@jest/globals';
import type { Request } from 'express';
import { isLoopback, metricsRefusal } from './metrics-access.js';

function request(remoteAddress: string | undefined, headers: Record<string, string> = {}): Request {
  return { socket: { remoteAddress }, headers } as unknown as Request;
}

describe('who may read /metrics', () => {
  it('knows loopback in IPv4, IPv6 and IPv4-mapped forms, and nothing else', () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])
      expect(isLoopback(address)).toBe(true);
    for (const address of ['192.0.2.2', '::ffff:192.0.2.2', 'fd00::2', '10.0.0.1', '1127.0.0.1', undefined])
      expect(isLoopback(address)).toBe(false);
  });

  it('without a token, admits loopback peers only, and none that a proxy relays', () => {
    expect(metricsRefusal(request('127.0.0.1'), undefined)).toBeUndefined();
    expect(metricsRefusal(request('192.0.2.2'), undefined)?.getStatus()).toBe(403);
    expect(metricsRefusal(request('127.0.0.1', { 'x-forwarded-for': '127.0.0.1' }), undefined)?.getStatus()).toBe(403);
    expect(metricsRefusal(request('::1', { forwarded: 'for=127.0.0.1' }), undefined)?.getStatus()).toBe(403);
  });

  it('with a token, admits exactly its bearer, from anywhere, and no loopback peer without it', () => {
    const token = 'sixteen-chars-ok';
    expect(metricsRefusal(request('192.0.2.2', { authorization: `Bearer ${token}` }), token)).toBeUndefined();
    expect(metricsRefusal(request('127.0.0.1'), token)?.getStatus()).toBe(401);
    expect(
      metricsRefusal(request('127.0.0.1', { authorization: `Bearer ${token.slice(1)}` }), token)?.getStatus(),
    ).toBe(401);
  });
});
