// The personal key store's contract, one suite run against every adapter: a key is made once for every node,
// found while it exists, and once erased it is gone for good, its bytes included.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PERSONAL_KEY_BYTES, PersonalDataErasedError, type PersonalKeyStore } from '../personal-keys.port.js';

export type PersonalKeysHarness = {
  /** A key store on the same storage each time (two are open at once, as on two nodes). */
  open(): Promise<PersonalKeyStore>;
  /** Every byte of the storage the keys live in (files, or the table's pages), to look for an erased key. */
  storedBytes?(): Promise<Buffer>;
  /** False where the store keeps no time of its own for an erasure (EventStoreDB's key streams). */
  keepsErasureTimes?: boolean;
  dispose(): Promise<void>;
};

export function describePersonalKeysContract(
  name: string,
  harness: () => Promise<PersonalKeysHarness>,
  options: { skip?: string } = {},
): void {
  const describeIt = options.skip === undefined ? describe : describe.skip;
  describeIt(`${name}: personal keys`, () => {
    let opened: PersonalKeysHarness;
    let node: PersonalKeyStore;
    let otherNode: PersonalKeyStore;
    const subject = () => `user:${randomUUID()}`;

    beforeAll(async () => {
      opened = await harness();
      node = await opened.open();
      otherNode = await opened.open();
    }, 60_000);

    afterAll(async () => {
      await node.close();
      await otherNode.close();
      await opened.dispose();
    });

    it('makes one key per subject, the same on every node however many ask at once', async () => {
      const person = subject();
      const keys = await Promise.all([
        ...Array.from({ length: 8 }, () => node.obtain(person)),
        ...Array.from({ length: 8 }, () => otherNode.obtain(person)),
      ]);
      expect(keys[0]).toHaveLength(PERSONAL_KEY_BYTES);
      expect(new Set(keys.map((key) => key.toString('hex'))).size).toBe(1);
      expect(await otherNode.find([person])).toEqual(new Map([[person, keys[0]]]));
    });

    it('finds the keys that exist, and none for a subject never sealed for', async () => {
      const [ada, grace, nobody] = [subject(), subject(), subject()];
      const adaKey = await node.obtain(ada);
      const graceKey = await node.obtain(grace);
      expect(await otherNode.find([ada, grace, nobody, ada])).toEqual(
        new Map([
          [ada, adaKey],
          [grace, graceKey],
        ]),
      );
      expect((await node.obtain(ada)).equals(adaKey)).toBe(true);
    });

    it('erases a key for good: no node finds it, none makes it again, and erasing again changes nothing', async () => {
      const person = subject();
      await node.obtain(person);
      await otherNode.erase(person);
      expect(await node.find([person])).toEqual(new Map());
      await expect(node.obtain(person)).rejects.toThrow(PersonalDataErasedError);
      await expect(otherNode.obtain(person)).rejects.toThrow(PersonalDataErasedError);
      await node.erase(person);
      await expect(node.obtain(person)).rejects.toThrow(PersonalDataErasedError);
    });

    it('makes many keys at once, as one at a time would, and none for an erased subject', async () => {
      const [known, fresh, erased] = [subject(), subject(), subject()];
      const knownKey = await node.obtain(known);
      await node.erase(erased);
      const keys = await otherNode.obtainAll([known, fresh, erased, fresh]);
      expect([...keys.keys()].sort()).toEqual([known, fresh].sort());
      expect(keys.get(known)?.equals(knownKey)).toBe(true);
      expect((await node.obtain(fresh)).equals(keys.get(fresh) as Buffer)).toBe(true);
    });

    it('erases a subject that never had a key: none is made for it afterwards', async () => {
      const person = subject();
      await node.erase(person);
      await expect(node.obtain(person)).rejects.toThrow(PersonalDataErasedError);
    });

    it('lists the subjects with a key by prefix (expiring periods), erased ones left out', async () => {
      const prefix = `period-${randomUUID()}:`;
      await node.obtain(`${prefix}2030-01`);
      await node.obtain(`${prefix}2030-02`);
      await node.obtain(`${prefix}2030-03`);
      await node.obtain(`other-${prefix}2030-01`);
      await node.erase(`${prefix}2030-02`);
      expect(await otherNode.subjects(prefix)).toEqual([`${prefix}2030-01`, `${prefix}2030-03`]);
    });

    it('exports every key and every erasure in subject order, page by page', async () => {
      const prefix = `export-${randomUUID()}:`;
      const [kept, erased] = [`${prefix}a`, `${prefix}b`];
      const key = await node.obtain(kept);
      await node.obtain(erased);
      await node.erase(erased);

      const exported: Array<{ subject: string; key: Buffer | null }> = [];
      for (let after: string | undefined = `${prefix}`; ;) {
        const page = await otherNode.exportKeys(after, 1);
        const ours = page.filter((record) => record.subject.startsWith(prefix));
        exported.push(...ours.map(({ subject: listed, key: held }) => ({ subject: listed, key: held })));
        if (ours.length === 0) break;
        after = page.at(-1)?.subject;
      }

      expect(exported).toEqual([
        { subject: kept, key },
        { subject: erased, key: null },
      ]);
    });

    it("imports another store's keys and erasures: a new key kept, a key erased there erased here, an erasure here kept", async () => {
      const [taken, erasedThere, erasedHere] = [subject(), subject(), subject()];
      const held = await node.obtain(erasedThere);
      await node.obtain(erasedHere);
      await node.erase(erasedHere);
      const at = new Date().toISOString();
      const made = Buffer.alloc(PERSONAL_KEY_BYTES, 7);

      await otherNode.importKeys([
        { subject: taken, key: made, createdAt: at, erasedAt: null },
        { subject: erasedThere, key: null, createdAt: at, erasedAt: at },
        { subject: erasedHere, key: Buffer.alloc(PERSONAL_KEY_BYTES, 9), createdAt: at, erasedAt: null },
      ]);

      const found = await node.find([taken, erasedThere, erasedHere]);
      expect(found.get(taken)).toEqual(made);
      expect([found.has(erasedThere), found.has(erasedHere)]).toEqual([false, false]);
      expect(held).not.toEqual(made);
      await expect(node.obtain(erasedThere)).rejects.toThrow(PersonalDataErasedError);
      // The erasure keeps the time it was made there, so that a copy says when the person was erased.
      if (opened.keepsErasureTimes === false) return;
      const record = (await node.exportKeys(undefined, 100_000)).find((key) => key.subject === erasedThere);
      expect(Date.parse(record?.erasedAt ?? '')).toBe(Date.parse(at));
    });

    it("leaves no copy of an erased key's bytes in the storage", async () => {
      if (opened.storedBytes === undefined) return;
      const people = Array.from({ length: 20 }, subject);
      const keys = await Promise.all(people.map((person) => node.obtain(person)));
      for (const person of people) await node.erase(person);
      const bytes = await opened.storedBytes();
      expect(keys.filter((key) => bytes.includes(key))).toEqual([]);
    });
  });
}
