import type { ReactNode } from 'react';

export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="page-header">
      <h1 className="page-header__title">{title}</h1>
      {children && <p className="page-header__subtitle">{children}</p>}
    </div>
  );
}
