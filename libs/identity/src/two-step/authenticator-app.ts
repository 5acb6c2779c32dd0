// TOTP (RFC 6238). That a time step is used once is the user stream's decision, not this module's.
import { generateSecret, generateURI, verify } from 'otplib';

export const TOTP_PERIOD_SECONDS = 30;
/** One step either side of now (RFC 6238 5.2's recommendation), for a clock a little off or a slow typist. */
const TOLERANCE_SECONDS = TOTP_PERIOD_SECONDS;

export type AuthenticatorAppSetup = {
  secret: string;
  uri: string;
  /** A data: URL, drawn here so the page needs no QR library. */
  qrCode: string;
};

export async function newAuthenticatorAppSetup(issuer: string, accountName: string): Promise<AuthenticatorAppSetup> {
  const secret = generateSecret({ length: 20 });
  const uri = generateURI({ issuer, label: accountName, secret });
  // Loaded at the first setup, not at start-up (bench/cli): drawing a QR code is rare.
  const { default: QRCode } = await import('qrcode');
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret, uri, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}` };
}

export const asAuthenticatorCode = (input: string): string | undefined => {
  const code = input.replace(/\s+/g, '');
  return /^\d{6}$/.test(code) ? code : undefined;
};

export async function timeStepOf(secret: string, code: string, now: Date): Promise<number | undefined> {
  const epoch = Math.floor(now.getTime() / 1000);
  const result = await verify({ secret, token: code, epoch, epochTolerance: TOLERANCE_SECONDS });
  return result.valid ? Math.floor(epoch / TOTP_PERIOD_SECONDS) + result.delta : undefined;
}
