import { useId, type ReactNode } from 'react';

type SectionProps = {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  className?: string;
  children: ReactNode;
};

export function Section({ title, description, actions, className = '', children }: SectionProps) {
  const titleId = useId();
  return (
    <section className={`card ${className}`} aria-labelledby={titleId}>
      <div className="card__header">
        <div>
          <h2 className="card__title" id={titleId}>
            {title}
          </h2>
          {description && <p className="card__description">{description}</p>}
        </div>
        {actions}
      </div>
      {children}
    </section>
  );
}
