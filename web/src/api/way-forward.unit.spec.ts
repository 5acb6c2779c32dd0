import { describe, expect, it } from '@jest/globals';
import { anOrganization, member } from '../testing/console-fixtures';
import { either, wayForward, type Contact } from './way-forward';

const none: Contact = { upgradeUrl: null, supportEmail: null };
const both: Contact = { upgradeUrl: 'https://billing.example.com/portal', supportEmail: 'help@example.com' };
const acme = anOrganization({
  members: [
    member('ada@acme.example', 'owner'),
    member('olu@acme.example', 'owner'),
    member('cem@acme.example', 'admin'),
  ],
});

describe('the way forward after a refusal', () => {
  it('links an owner to UPGRADE_URL for a limit or a plan, and prefers SUPPORT_EMAIL for turning Chorus on', () => {
    const portal = { href: 'https://billing.example.com/portal', label: 'Change the plan or add-ons' };
    expect(wayForward('raise', 'owner', acme, both)).toEqual({ before: '', link: portal });
    expect(wayForward('enterprise', 'owner', acme, both)?.link?.label).toBe('Move to an Enterprise plan');
    expect(wayForward('largerPlan', 'owner', acme, both)?.link?.label).toBe('Choose a larger plan');
    const mail = { href: 'mailto:help@example.com', label: 'help@example.com' };
    expect(wayForward('chorus', 'owner', acme, both)).toEqual({
      before: 'Write to ',
      link: mail,
      after: ' to turn Chorus on.',
    });
    expect(wayForward('chorus', 'owner', acme, { ...both, supportEmail: null })?.link?.href).toBe(
      'https://billing.example.com/portal',
    );
    expect(wayForward('raise', 'owner', acme, { ...both, upgradeUrl: null })?.after).toBe(' to raise the limit.');
  });

  it('sends an owner to the support address for a limit Chorus set, never to the shop', () => {
    const mail = { href: 'mailto:help@example.com', label: 'help@example.com' };
    expect(wayForward('support', 'owner', acme, both)).toEqual({
      before: 'Write to ',
      link: mail,
      after: ' to raise the limit.',
    });
    expect(wayForward('support', 'owner', acme, { ...both, supportEmail: null })).toBeNull();
  });

  it('offers an owner no step without UPGRADE_URL or SUPPORT_EMAIL: "ask support" with no address leads nowhere', () => {
    for (const goal of ['raise', 'largerPlan', 'support', 'plan', 'chorus', 'payment'] as const)
      expect(wayForward(goal, 'owner', acme, none)).toBeNull();
  });

  it('names the owners to everyone else, never a link', () => {
    for (const role of ['admin', 'member', 'auditor'] as const) {
      expect(wayForward('raise', role, acme, both)).toEqual({
        before: 'Ask an owner to raise the limit: ada@acme.example or olu@acme.example.',
      });
    }
  });

  it('lists names as people do', () => {
    expect([either([]), either(['a']), either(['a', 'b']), either(['a', 'b', 'c'])]).toEqual([
      '',
      'a',
      'a or b',
      'a, b or c',
    ]);
  });
});
