import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Button } from './button';

type SecretOnceProps = {
  /** "Signing secret for https://…" */
  title: string;
  secret: string;
  /** What the copy button names: "the secret", "the token". */
  what?: string;
  /** Where the reader pastes it. */
  pasteInto?: string;
  /** What the reader must know beside it: shown only now, and for a rotation, the old one's 24 hours. */
  children: ReactNode;
  onDone: () => void;
};

/** Shown once: Chorus keeps only the key. Its heading takes the focus, so a screen reader starts here. */
export function SecretOnce({
  title,
  secret,
  what = 'the secret',
  pasteInto = 'your receiver’s settings',
  children,
  onDone,
}: SecretOnceProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  const code = useRef<HTMLElement>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const titleId = useId();
  useEffect(() => heading.current?.focus(), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(`Copied. Paste it into ${pasteInto}.`);
    } catch {
      // No clipboard here (an old browser, a denied permission): the text is selected for Ctrl+C instead.
      const selection = window.getSelection();
      if (code.current !== null && selection !== null) selection.selectAllChildren(code.current);
      setCopied(`${what.charAt(0).toUpperCase()}${what.slice(1)} is selected: copy it with Ctrl+C (⌘C on a Mac).`);
    }
  }

  return (
    <div className="secret-once" role="group" aria-labelledby={titleId}>
      <h3 className="secret-once__title" id={titleId} ref={heading} tabIndex={-1}>
        {title}
      </h3>
      <div className="secret-once__body">{children}</div>
      <div className="secret-once__value">
        <code className="address" ref={code}>
          {secret}
        </code>
      </div>
      <div className="form__actions secret-once__actions">
        <Button type="button" variant="secondary" className="button--small" onClick={() => void copy()}>
          Copy {what}
        </Button>
        <Button type="button" variant="quiet" className="button--small" onClick={onDone}>
          I have saved it
        </Button>
      </div>
      <p className="form__status" role="status">
        {copied}
      </p>
    </div>
  );
}
