import { describe, expect, it } from '@jest/globals';
import { OrganizationMailWindow } from './organization-mail-window.js';

const hour = 3_600_000;

describe('OrganizationMailWindow (one organization mails so many an hour; more wait)', () => {
  it('lets an organization mail its hourly number, then makes the next wait until the oldest is an hour old', () => {
    const window = new OrganizationMailWindow(3);
    for (const at of [0, 10, 20]) {
      expect(window.waitFor('evil', at)).toBe(0);
      window.take('evil', at);
    }
    expect(window.waitFor('evil', 30)).toBe(hour - 30);
    expect(window.waitFor('evil', hour)).toBe(0);
  });

  it("counts each organization alone: one organization's mails never hold another's", () => {
    const window = new OrganizationMailWindow(2);
    window.take('evil', 0);
    window.take('evil', 1);
    expect(window.waitFor('evil', 2)).toBeGreaterThan(0);
    expect(window.waitFor('demo', 2)).toBe(0);
  });

  it('takes back a mail that was not sent after all', () => {
    const window = new OrganizationMailWindow(1);
    const takeBack = window.take('acme', 5);
    expect(window.waitFor('acme', 6)).toBeGreaterThan(0);
    takeBack();
    expect(window.waitFor('acme', 6)).toBe(0);
  });
});
