import type { ReactNode } from 'react';

type NoticeProps = { tone: 'error' | 'info'; children: ReactNode };

export function Notice({ tone, children }: NoticeProps) {
  return (
    <div className={`notice notice--${tone}`}>
      <svg className="notice__icon" viewBox="0 0 20 20" aria-hidden="true">
        <circle cx="10" cy="10" r="8.25" fill="none" stroke="currentColor" strokeWidth="1.5" />
        <path d={tone === 'error' ? 'M10 5.6v5.3M10 13.6v.4' : 'M10 9.1v5.3M10 5.9v.4'} stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
      </svg>
      <div className="notice__body">{children}</div>
    </div>
  );
}
