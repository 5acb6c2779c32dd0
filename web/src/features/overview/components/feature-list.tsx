import { CHORUS_FEATURES, type SiteFeatures } from '../../../api/contract';
import { CHORUS_FEATURE_NAMES, SITE_FEATURE_NAMES } from '../../../api/words';

type Flag = { key: string; name: string; on: boolean };

/** In words, not only a colour or a tick. */
function FlagList({ flags, label }: { flags: Flag[]; label: string }) {
  return (
    <ul className="flags" aria-label={label}>
      {flags.map((flag) => (
        <li className={`flag ${flag.on ? 'flag--on' : 'flag--off'}`} key={flag.key}>
          <svg className="flag__icon" viewBox="0 0 20 20" aria-hidden="true">
            {flag.on ? (
              <path
                d="m5.5 10.5 3 3 6-7"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
                strokeLinejoin="round"
              />
            ) : (
              <path d="M6.5 10h7" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            )}
          </svg>
          <span className="flag__name">{flag.name}</span>
          <span className="visually-hidden">{flag.on ? ': on' : ': off'}</span>
        </li>
      ))}
    </ul>
  );
}

export function ChorusFeatureList({ features }: { features: Record<(typeof CHORUS_FEATURES)[number], boolean> }) {
  return (
    <FlagList
      label="Chorus features"
      flags={CHORUS_FEATURES.map((key) => ({ key, name: CHORUS_FEATURE_NAMES[key], on: features[key] }))}
    />
  );
}

export function SiteFeatureList({ features }: { features: SiteFeatures }) {
  const keys = Object.keys(SITE_FEATURE_NAMES) as (keyof SiteFeatures)[];
  return (
    <FlagList
      label="Site defaults"
      flags={keys.map((key) => ({ key, name: SITE_FEATURE_NAMES[key], on: features[key] }))}
    />
  );
}
