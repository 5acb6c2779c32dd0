type ProgressBarProps = {
  label: string;
  value: number;
  /** null: unlimited (the bar then shows no fill and no maximum). */
  max: number | null;
  /** E.g. "3 of 5". */
  valueText: string;
};

export function ProgressBar({ label, value, max, valueText }: ProgressBarProps) {
  const share = max === null || max === 0 ? 0 : Math.min(1, value / max);
  const tone = max === null ? 'unlimited' : value >= max ? 'full' : share >= 0.8 ? 'high' : 'normal';
  return (
    <div
      className={`progress progress--${tone}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuenow={max === null ? value : Math.min(value, max)}
      aria-valuemax={max ?? undefined}
      aria-valuetext={valueText}
    >
      <div className="progress__fill" style={{ width: `${share * 100}%` }} />
    </div>
  );
}
