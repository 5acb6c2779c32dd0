// An identity provider's SAML metadata, read for the three things a sign-on needs: its entity id, where to send the
// browser (the HTTP-Redirect SingleSignOnService) and the certificates its signatures must verify with.
import { X509Certificate } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';

const METADATA_NS = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
export const MAX_SAML_METADATA_BYTES = 256 * 1024;
const MAX_CERTIFICATES = 4;

export type SamlMetadata = {
  entityId: string;
  ssoUrl: string;
  certificates: { certificate: string; sha256: string; notAfter: string }[];
};

/** Its message says what to fix, in the owner's terms; it is answered to them. */
export class SamlMetadataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SamlMetadataError';
  }
}

export function readSamlMetadata(xml: string): SamlMetadata {
  if (Buffer.byteLength(xml) > MAX_SAML_METADATA_BYTES)
    throw new SamlMetadataError(`The metadata is larger than ${MAX_SAML_METADATA_BYTES / 1024} kB.`);
  // A DOCTYPE is where entity expansion attacks live; no identity provider's metadata needs one.
  if (/<!DOCTYPE/i.test(xml)) throw new SamlMetadataError('The metadata must not have a DOCTYPE.');
  const problems: string[] = [];
  const document = new DOMParser({
    errorHandler: (level: string, message: unknown) => void (level !== 'warning' && problems.push(String(message))),
  }).parseFromString(xml, 'text/xml');
  if (problems.length > 0 || document.documentElement === null)
    throw new SamlMetadataError('The metadata is not well-formed XML.');
  const providers = elements(document.documentElement, METADATA_NS, 'EntityDescriptor', true).filter(
    (entity) => idpDescriptor(entity) !== undefined,
  );
  if (providers.length === 0)
    throw new SamlMetadataError('The metadata describes no identity provider (no IDPSSODescriptor).');
  if (providers.length > 1)
    throw new SamlMetadataError('The metadata describes several identity providers: give the one for Chorus.');
  const entity = providers[0] as Element;
  const descriptor = idpDescriptor(entity) as Element;
  const entityId = entity.getAttribute('entityID') ?? '';
  if (entityId === '') throw new SamlMetadataError('The identity provider has no entityID.');
  const redirect = elements(descriptor, METADATA_NS, 'SingleSignOnService').find(
    (service) => service.getAttribute('Binding') === REDIRECT_BINDING,
  );
  const ssoUrl = redirect?.getAttribute('Location') ?? '';
  if (ssoUrl === '')
    throw new SamlMetadataError('The identity provider has no SingleSignOnService with the HTTP-Redirect binding.');
  return { entityId, ssoUrl, certificates: signingCertificates(descriptor) };
}

function idpDescriptor(entity: Element): Element | undefined {
  return elements(entity, METADATA_NS, 'IDPSSODescriptor')[0];
}

function signingCertificates(descriptor: Element) {
  const keys = elements(descriptor, METADATA_NS, 'KeyDescriptor').filter((key) =>
    ['', 'signing'].includes(key.getAttribute('use') ?? ''),
  );
  const found = new Map<string, SamlMetadata['certificates'][number]>();
  for (const key of keys) {
    for (const element of elements(key, DSIG_NS, 'X509Certificate', true)) {
      const certificate = (element.textContent ?? '').replace(/\s+/g, '');
      let parsed: X509Certificate;
      try {
        parsed = new X509Certificate(Buffer.from(certificate, 'base64'));
      } catch {
        throw new SamlMetadataError('A signing certificate in the metadata cannot be read.');
      }
      const sha256 = parsed.fingerprint256.replaceAll(':', '').toLowerCase();
      found.set(sha256, { certificate, sha256, notAfter: new Date(parsed.validTo).toISOString() });
    }
  }
  if (found.size === 0) throw new SamlMetadataError('The identity provider names no signing certificate.');
  if (found.size > MAX_CERTIFICATES)
    throw new SamlMetadataError(`The identity provider names more than ${MAX_CERTIFICATES} signing certificates.`);
  return [...found.values()];
}

/** Children by namespace and local name; `deep`: any descendant. */
function elements(parent: Element, namespace: string, localName: string, deep = false): Element[] {
  if (deep) {
    const descendants = Array.from(
      parent.getElementsByTagNameNS(namespace, localName) as unknown as ArrayLike<Element>,
    );
    return matches(parent, namespace, localName) ? [parent, ...descendants] : descendants;
  }
  const found: Element[] = [];
  for (let node = parent.firstChild; node !== null; node = node.nextSibling) {
    if (node.nodeType === node.ELEMENT_NODE && matches(node as Element, namespace, localName))
      found.push(node as Element);
  }
  return found;
}

const matches = (element: Element, namespace: string, localName: string): boolean =>
  element.namespaceURI === namespace && element.localName === localName;
