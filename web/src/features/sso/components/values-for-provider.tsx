import { useId } from 'react';

export type ValueForProvider = { name: string; value: string; hint?: string };

/**
 * What the owner pastes into the identity provider, each named as the providers' screens name it; a click selects all
 * of one.
 */
export function ValuesForProvider({
  title,
  hint,
  values,
}: {
  title: string;
  hint: string;
  values: ValueForProvider[];
}) {
  const id = useId();
  return (
    <div className="sso-values" role="group" aria-labelledby={`${id}-title`} aria-describedby={`${id}-hint`}>
      <p className="field__label" id={`${id}-title`}>
        {title}
      </p>
      <p className="field__hint" id={`${id}-hint`}>
        {hint}
      </p>
      <dl className="facts">
        {values.map((each) => (
          <div className="fact fact--wide" key={each.name}>
            <dt>{each.name}</dt>
            <dd>
              <code className="address">{each.value}</code>
              {each.hint !== undefined && <span className="sso-values__hint">{each.hint}</span>}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
