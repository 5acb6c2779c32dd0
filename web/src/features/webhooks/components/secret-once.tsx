import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button';

type SecretOnceProps = {
  /** "Signing secret for https://…" */
  title: string;
  secret: string;
  /** What the reader must know beside it: shown only now, and for a rotation, the old one's 24 hours. */
  children: ReactNode;
  onDone: () => void;
};

/** Shown once: Chorus keeps only the key. Its heading takes the focus, so a screen reader starts here. */
export function SecretOnce({ title, secret, children, onDone }: SecretOnceProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  const code = useRef<HTMLElement>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const titleId = useId();
  useEffect(() => heading.current?.focus(), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('Copied. Paste it into your receiver’s settings.');
    } catch {
      // No clipboard here (an old browser, a denied permission): the text is selected for Ctrl+C instead.
      const selection = window.getSelection();
      if (code.current !== null && selection !== null) selection.selectAllChildren(code.current);
      setCopied('The secret is selected: copy it with Ctrl+C (⌘C on a Mac).');
    }
  }

  return (
    <div className="webhook-secret" role="group" aria-labelledby={titleId}>
      <h3 className="webhook-secret__title" id={titleId} ref={heading} tabIndex={-1}>
        {title}
      </h3>
      <div className="webhook-secret__body">{children}</div>
      <div className="webhook-secret__value">
        <code className="address" ref={code}>
          {secret}
        </code>
      </div>
      <div className="form__actions webhook-secret__actions">
        <Button type="button" variant="secondary" className="button--small" onClick={() => void copy()}>
          Copy the secret
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
