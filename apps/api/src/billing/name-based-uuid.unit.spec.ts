import { describe, expect, it } from '@jest/globals';
import { nameBasedUuid } from './name-based-uuid.js';

describe('nameBasedUuid', () => {
  it('gives the same lower-case version-5 uuid for the same name, every time', () => {
    const id = nameBasedUuid('billing:evt_1:received');

    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(nameBasedUuid('billing:evt_1:received')).toBe(id);
  });

  it('gives different names different uuids', () => {
    const names = [
      'billing:evt_1:received',
      'billing:evt_1:outcome',
      'billing:evt_2:received',
      'billing:evt_1:organization:0',
    ];

    expect(new Set(names.map(nameBasedUuid)).size).toBe(names.length);
  });
});
