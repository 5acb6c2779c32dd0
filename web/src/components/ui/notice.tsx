import type { ReactNode } from 'react';

type NoticeProps = { tone: 'error' | 'info' | 'warning' | 'success'; children: ReactNode };

const ICON_PATH: Record<NoticeProps['tone'], string> = {
  error: 'M10 5.6v5.3M10 13.6v.4',
  warning: 'M10 5.6v5.3M10 13.6v.4',
  info: 'M10 9.1v5.3M10 5.9v.4',
  success: 'm6.6 10.2 2.3 2.3 4.5-4.9',
};

export function Notice({ tone, children }: NoticeProps) {
  return (
    <div className={`notice notice--${tone}`}>
      <svg className="notice__icon" viewBox="0 0 20 20" aria-hidden="true">
        <circle cx="10" cy="10" r="8.25" fill="none" stroke="currentColor" strokeWidth="1.5" />
        <path
          d={ICON_PATH[tone]}
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <div className="notice__body">{children}</div>
    </div>
  );
}
