import { useId, type ComponentProps } from 'react';

type TextFieldProps = ComponentProps<'input'> & { label: string; hint?: string };

export function TextField({ label, hint, id, ...input }: TextFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hintId = `${inputId}-hint`;
  const describedBy =
    [input['aria-describedby'], hint === undefined ? undefined : hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label className="field__label" htmlFor={inputId}>
        {label}
      </label>
      <input className="field__input" id={inputId} {...input} aria-describedby={describedBy} />
      {hint !== undefined && (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      )}
    </div>
  );
}
