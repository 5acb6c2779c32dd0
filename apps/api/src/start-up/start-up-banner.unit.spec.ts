import { describe, expect, it } from '@jest/globals';
import { inBox, startUpLines, type StartUpFacts } from './start-up-banner.js';

const facts = (overrides: Partial<StartUpFacts>): StartUpFacts => ({
  productName: 'Chorus',
  publicUrl: 'http://localhost:3000',
  signIn: { kind: 'existing', email: undefined },
  outbox: 'data/outbox',
  ...overrides,
});

describe('the start-up banner', () => {
  it('on the start that created the demo: the URL, the login page, the owner and the password', () => {
    const lines = startUpLines(
      facts({ signIn: { kind: 'created', email: 'owner@demo.chorus.localhost', password: 'pw-123' } }),
    );

    expect(lines[0]).toBe('Chorus is running at http://localhost:3000');
    expect(lines).toContain('http://localhost:3000/login with');
    expect(lines).toContain('  e-mail:    owner@demo.chorus.localhost');
    expect(lines).toContain('  password:  pw-123   (shown only this once)');
    expect(lines.join('\n')).not.toContain('/forgot');
  });

  it('on a restart: the demo owner, /forgot and the outbox where the reset mail lands without SMTP_URL', () => {
    const lines = startUpLines(facts({ signIn: { kind: 'existing', email: 'owner@demo.chorus.localhost' } }));

    expect(lines).toEqual([
      'Chorus is running at http://localhost:3000',
      '',
      'Sign in at http://localhost:3000/login',
      '  as the demo owner, owner@demo.chorus.localhost',
      'Forgot the password? Ask for a link at http://localhost:3000/forgot',
      '  SMTP_URL is not set: the mail is written to data/outbox (open its .txt)',
      '',
      'More users: ./chorus user:create --help',
    ]);
  });

  it('on a store without the demo owner: points to the command line; with SMTP_URL: no outbox', () => {
    const lines = startUpLines(facts({ productName: 'Acme Voice', outbox: undefined }));

    expect(lines[0]).toBe('Acme Voice is running at http://localhost:3000');
    expect(lines).toContain('  with a user made by the command line (below)');
    expect(lines.join('\n')).not.toContain('outbox');
    expect(lines.join('\n')).not.toContain('password:');
  });

  it('says where the requests are logged when they go to a file, so nothing follows the box on screen', () => {
    expect(startUpLines(facts({ requestLog: 'data/logs/requests.log' })).at(-1)).toBe(
      'Requests are logged to data/logs/requests.log (REQUEST_LOG)',
    );
    expect(startUpLines(facts({})).join('\n')).not.toContain('REQUEST_LOG');
  });

  it("names the file of the key that signs the history's checkpoints when it is DATA_DIR's, and the setting", () => {
    expect(startUpLines(facts({ historyKey: 'data/history-signing-key.pem' })).at(-1)).toBe(
      'History checkpoints are signed with data/history-signing-key.pem (HISTORY_SIGNING_KEY)',
    );
    expect(startUpLines(facts({})).join('\n')).not.toContain('HISTORY_SIGNING_KEY');
  });

  it('draws a box as wide as the longest line', () => {
    expect(inBox(['short', 'a longer line', ''])).toBe(
      ['┌───────────────┐', '│ short         │', '│ a longer line │', '│               │', '└───────────────┘'].join(
        '\n',
      ),
    );
  });
});
