import type { ReactNode } from 'react';
import { Logo } from './logo';

type AuthLayoutProps = { productName: string; children: ReactNode };

/** Seed, section 1: the logo, heading and form on the left; the showcase illustration on the right. */
export function AuthLayout({ productName, children }: AuthLayoutProps) {
  return (
    <div className="auth">
      <main className="auth__main">
        <div className="auth__content">
          <Logo productName={productName} />
          {children}
        </div>
      </main>
      {/* Decorative: a CSS background, so narrow screens that hide the pane never download it. */}
      <div className="auth__showcase" aria-hidden="true">
        <div className="auth__art" />
      </div>
    </div>
  );
}
