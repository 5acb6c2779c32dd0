import type { ReactNode } from 'react';

type ScreenHeaderProps = { title: string; children: ReactNode };

/** The sub-heading is a live region because some screens change it. */
export function ScreenHeader({ title, children }: ScreenHeaderProps) {
  return (
    <header className="screen-header">
      <h1 className="screen-header__title">{title}</h1>
      <p className="screen-header__subtitle" aria-live="polite">
        {children}
      </p>
    </header>
  );
}
