import { useId, type ComponentProps } from 'react';

type CheckboxFieldProps = Omit<ComponentProps<'input'>, 'type'> & { label: string; hint?: string };

export function CheckboxField({ label, hint, id, ...input }: CheckboxFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hintId = `${inputId}-hint`;
  return (
    <div className="checkbox">
      <input
        className="checkbox__input"
        type="checkbox"
        id={inputId}
        aria-describedby={hint ? hintId : undefined}
        {...input}
      />
      <label className="checkbox__label" htmlFor={inputId}>
        {label}
        {hint && (
          <span className="checkbox__hint" id={hintId}>
            {hint}
          </span>
        )}
      </label>
    </div>
  );
}
