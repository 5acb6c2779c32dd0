import type { ComponentProps } from 'react';

type ButtonProps = ComponentProps<'button'> & {
  variant?: 'primary' | 'secondary' | 'danger' | 'quiet';
  /** The spinner sits over the padding, so nothing moves. */
  busy?: boolean;
};

export function Button({ variant = 'primary', busy = false, disabled, className, children, ...props }: ButtonProps) {
  return (
    <button
      {...props}
      className={`button button--${variant}${className ? ` ${className}` : ''}`}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
    >
      {children}
      {busy && <span className="spinner" aria-hidden="true" />}
    </button>
  );
}
