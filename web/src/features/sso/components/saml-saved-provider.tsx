import { useId, useState } from 'react';
import type { SamlSsoSettings } from '../../../api/contract';
import { Notice } from '../../../components/ui/notice';
import { formatDay } from '../../../lib/date-time';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A certificate this close to its end is worth a word: a new one takes the provider's admin some steps. */
const SOON_DAYS = 30;

type Certificate = SamlSsoSettings['certificates'][number];

const daysLeft = (certificate: Certificate, now: number): number =>
  Math.ceil((Date.parse(certificate.notAfter) - now) / DAY_MS);

/** "3F:A2:…": as Okta and the certificate viewers show a SHA-256 fingerprint. */
const fingerprint = (sha256: string): string => (sha256.toUpperCase().match(/../g) ?? []).join(':');

function expiryWords(certificate: Certificate, now: number): string {
  const day = formatDay(certificate.notAfter);
  const left = daysLeft(certificate, now);
  if (left <= 0) return `Signing certificate expired on ${day}`;
  if (left > SOON_DAYS) return `Signing certificate expires on ${day}`;
  return `Signing certificate expires on ${day}, in ${left === 1 ? '1 day' : `${left} days`}`;
}

/**
 * Said only when no certificate lasts beyond the coming month: with a newer one saved, the provider can switch already.
 */
function ExpiryWarning({ certificates, now }: { certificates: Certificate[]; now: number }) {
  const last = certificates.reduce<Certificate | null>(
    (latest, each) => (latest === null || Date.parse(each.notAfter) > Date.parse(latest.notAfter) ? each : latest),
    null,
  );
  if (last === null || daysLeft(last, now) > SOON_DAYS) return null;
  const day = formatDay(last.notAfter);
  return (
    <Notice tone="warning">
      {daysLeft(last, now) <= 0 ? (
        <p>
          Your provider’s signing certificate expired on {day}: sign-in through your provider fails until Chorus has the
          new one.
        </p>
      ) : (
        <p>Your provider’s signing certificate expires on {day}: after that, sign-in through your provider stops.</p>
      )}
      <p>Make a new signing certificate at your provider, then give Chorus its metadata again below.</p>
    </Notice>
  );
}

/**
 * What Chorus read from the provider's metadata: its entity ID, where it signs people in, the certificates it signs
 * with.
 */
export function SamlSavedProvider({ saved }: { saved: SamlSsoSettings }) {
  const [now] = useState(() => Date.now());
  const id = useId();
  return (
    <div className="sso-values" role="group" aria-labelledby={id}>
      <p className="field__label" id={id}>
        Your provider, as Chorus saved it
      </p>
      <dl className="facts">
        <div className="fact fact--wide">
          <dt>Provider entity ID</dt>
          <dd>
            <code className="address">{saved.idpEntityId}</code>
          </dd>
        </div>
        <div className="fact fact--wide">
          <dt>Provider sign-on URL</dt>
          <dd>
            <code className="address">{saved.ssoUrl}</code>
          </dd>
        </div>
      </dl>
      <ExpiryWarning certificates={saved.certificates} now={now} />
      <ul className="sso-certificates" aria-label="Signing certificates">
        {saved.certificates.map((certificate) => {
          const left = daysLeft(certificate, now);
          return (
            <li className="sso-certificate" key={certificate.sha256}>
              <span
                className={
                  left <= SOON_DAYS
                    ? 'sso-certificate__expiry sso-certificate__expiry--soon'
                    : 'sso-certificate__expiry'
                }
              >
                {expiryWords(certificate, now)}
              </span>
              <span className="sso-certificate__fingerprint">
                SHA-256 fingerprint <code className="address">{fingerprint(certificate.sha256)}</code>
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
