import { describe, expect, it } from '@jest/globals';
import { generate } from 'otplib';
import { asAuthenticatorCode, newAuthenticatorAppSetup, timeStepOf } from './authenticator-app.js';

describe('authenticator apps', () => {
  it('set up with a QR code of the otpauth URI, and the secret as text', async () => {
    const setup = await newAuthenticatorAppSetup('Chorus', 'ada@example.com');
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.uri).toBe(`otpauth://totp/Chorus:ada%40example.com?secret=${setup.secret}&issuer=Chorus`);
    expect(Buffer.from(setup.qrCode.replace('data:image/svg+xml;base64,', ''), 'base64').toString('utf8')).toContain(
      '<svg',
    );
  });

  it('match a code to its time step, one step either side of now and no further', async () => {
    const { secret } = await newAuthenticatorAppSetup('Chorus', 'ada@example.com');
    const now = new Date('2030-01-01T10:00:10.000Z');
    const step = Math.floor(now.getTime() / 30_000);
    const codeAt = (offsetSteps: number) => generate({ secret, epoch: (step + offsetSteps) * 30 });
    expect(await timeStepOf(secret, await codeAt(0), now)).toBe(step);
    expect(await timeStepOf(secret, await codeAt(-1), now)).toBe(step - 1);
    expect(await timeStepOf(secret, await codeAt(1), now)).toBe(step + 1);
    expect(await timeStepOf(secret, await codeAt(-3), now)).toBeUndefined();
  });

  it('take six digits, with the space apps show', () => {
    expect(asAuthenticatorCode('123 456')).toBe('123456');
    expect(asAuthenticatorCode('12345')).toBeUndefined();
    expect(asAuthenticatorCode('ABCDEF')).toBeUndefined();
  });
});
