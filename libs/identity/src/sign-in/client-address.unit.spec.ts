import { describe, expect, it } from '@jest/globals';
import { clientAddressKey } from './client-address.js';

describe('the key of a client address', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:203.0.113.7', '203.0.113.7'],
    ['2001:db8:0:1::1', '2001:db8:0:1::/64'],
    ['2001:db8:0:1:ffff:ffff:ffff:ffff', '2001:db8:0:1::/64'],
    ['2001:0DB8:0000:0001:0:0:0:2', '2001:db8:0:1::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['::', '0:0:0:0::/64'],
    ['64:ff9b::203.0.113.7', '64:ff9b:0:0::/64'],
    ['unknown', 'unknown'],
  ])('of %s is %s', (address, key) => {
    expect(clientAddressKey(address)).toBe(key);
  });

  it('is one for every address of a /64, another for the next /64', () => {
    const keys = new Set(
      Array.from({ length: 50 }, (_unused, index) =>
        clientAddressKey(`2001:db8:aa:bb:${index.toString(16)}::${index}`),
      ),
    );

    expect(keys).toEqual(new Set(['2001:db8:aa:bb::/64']));
    expect(clientAddressKey('2001:db8:aa:bc::1')).not.toBe(clientAddressKey('2001:db8:aa:bb::1'));
  });
});
