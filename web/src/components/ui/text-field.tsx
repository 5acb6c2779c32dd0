import { useId, type ComponentProps } from 'react';

type TextFieldProps = ComponentProps<'input'> & { label: string };

export function TextField({ label, id, ...input }: TextFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  return (
    <div className="field">
      <label className="field__label" htmlFor={inputId}>
        {label}
      </label>
      <input className="field__input" id={inputId} {...input} />
    </div>
  );
}
