import { useId, type ComponentProps } from 'react';
import { CheckboxField } from '../../../components/ui/checkbox-field';
import { TextField } from '../../../components/ui/text-field';
import { savedSaml, type SsoFieldsProps } from '../sso-change';
import { SamlSavedProvider } from './saml-saved-provider';
import { SamlServiceProviderValues } from './saml-service-provider-values';

/** TextField's label, hint and descriptions, around a textarea (the metadata XML runs over many lines). */
function TextAreaField({ label, hint, id, ...textarea }: ComponentProps<'textarea'> & { label: string; hint: string }) {
  const generatedId = useId();
  const fieldId = id ?? generatedId;
  const describedBy = [textarea['aria-describedby'], `${fieldId}-hint`].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label className="field__label" htmlFor={fieldId}>
        {label}
      </label>
      <textarea className="field__input sso-metadata-xml" id={fieldId} {...textarea} aria-describedby={describedBy} />
      <p className="field__hint" id={`${fieldId}-hint`}>
        {hint}
      </p>
    </div>
  );
}

function urlHint(saved: ReturnType<typeof savedSaml>): string {
  if (saved === null)
    return 'Your provider’s SAML metadata address (Entra ID: App Federation Metadata Url). Chorus reads it when you save.';
  if (saved.metadataUrl === null)
    return 'The saved settings came from pasted XML. Enter a URL to read them from there instead.';
  return 'Chorus read the settings above from this address. Change it to read another.';
}

/**
 * The values for the provider, what its metadata said, and the metadata: a URL to read or the XML pasted. Left as they
 * are, the saved provider stays.
 */
export function SamlSettings({ organization, settings, values, change, invalid, describedBy }: SsoFieldsProps) {
  const saved = savedSaml(settings);
  return (
    <>
      <SamlServiceProviderValues organization={organization} />
      {saved !== null && <SamlSavedProvider saved={saved} />}
      <TextField
        label="Your provider’s metadata URL"
        name="metadataUrl"
        type="url"
        inputMode="url"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        placeholder="https://login.acme.example/saml/metadata"
        hint={urlHint(saved)}
        value={values.metadataUrl}
        onChange={(event) => change({ metadataUrl: event.target.value })}
        aria-invalid={invalid('metadataUrl')}
        aria-describedby={describedBy}
      />
      {saved !== null && saved.metadataUrl !== null && values.metadataUrl.trim() === saved.metadataUrl && (
        <CheckboxField
          label="Read the metadata again when saving"
          name="rereadMetadata"
          hint="When your provider has a new signing certificate or sign-on URL. Left off, the saved settings above are kept."
          checked={values.rereadMetadata}
          onChange={(event) => change({ rereadMetadata: event.target.checked })}
        />
      )}
      <TextAreaField
        label="Your provider’s metadata XML"
        name="metadataXml"
        rows={6}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        placeholder="<EntityDescriptor …>"
        hint={
          saved === null
            ? 'Or paste the metadata file your provider gives (Entra ID: Federation Metadata XML), instead of a URL.'
            : 'Or paste your provider’s metadata file, instead of a URL. Left empty, the saved settings above are kept.'
        }
        value={values.metadataXml}
        onChange={(event) => change({ metadataXml: event.target.value })}
        aria-invalid={invalid('metadataXml')}
        aria-describedby={describedBy}
      />
    </>
  );
}
