import { useEffect, useRef, type ReactNode } from 'react';
import { Notice } from '../../../components/ui/notice';

/** Shown once: the server keeps only their digests. The heading takes the focus so a screen reader starts here. */
export function RecoveryCodes({
  codes,
  productName,
  children,
}: {
  codes: string[];
  productName: string;
  children?: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const file = `data:text/plain;charset=utf-8,${encodeURIComponent(`${productName} recovery codes\n\nEach code works once.\n\n${codes.join('\n')}\n`)}`;
  return (
    <div className="recovery-codes">
      <h2 className="recovery-codes__title" ref={heading} tabIndex={-1}>
        Save your recovery codes
      </h2>
      <Notice tone="warning">
        They are shown only now. Each one signs you in once if your authenticator app or passkey is not at hand. Keep
        them somewhere safe, apart from your password.
      </Notice>
      <ol className="recovery-codes__list" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="form__actions recovery-codes__actions">
        <a
          className="button button--secondary"
          href={file}
          download={`${productName.toLowerCase()}-recovery-codes.txt`}
        >
          Download the codes
        </a>
        {children}
      </div>
    </div>
  );
}
