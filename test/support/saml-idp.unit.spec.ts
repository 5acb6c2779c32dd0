// SamlIdp's answers as @node-saml/node-saml, configured as a service provider, reads them: what verifies, what is
// refused by node-saml itself, and what an SP must still check on its own (noted where observed).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SAML, ValidateInResponseTo, type Profile, type SamlConfig } from '@node-saml/node-saml';
import { DOMParser } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { makeSamlKeys, SamlIdp, type SamlIdpKeys, type SamlResponseOptions, type WrappingVariant } from './saml-idp.js';

const SP = 'https://chorus.test/saml/metadata';
const ACS = 'https://chorus.test/auth/saml/acs';

let idp: SamlIdp;
let attackerKeys: SamlIdpKeys;

beforeAll(async () => {
  [idp, attackerKeys] = await Promise.all([SamlIdp.start(), makeSamlKeys('attacker')]);
});
afterAll(() => idp.close());

const serviceProvider = (options: Partial<SamlConfig> = {}): SAML =>
  new SAML({
    idpCert: idp.keys.certificatePem,
    issuer: SP,
    audience: SP,
    callbackUrl: ACS,
    entryPoint: idp.ssoUrl,
    wantAssertionsSigned: false,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: 60_000,
    ...options,
  });

const samlResponse = (options: Partial<SamlResponseOptions> = {}): string =>
  idp.response({ audience: SP, recipient: ACS, nameId: 'ada@example.com', ...options });

async function signIn(options: Partial<SamlResponseOptions> = {}, sp = serviceProvider()): Promise<Profile> {
  const { profile } = await sp.validatePostResponseAsync({ SAMLResponse: samlResponse(options) });
  if (!profile) throw new Error('node-saml answered no profile');
  return profile;
}

const decoded = (SAMLResponse: string): string => Buffer.from(SAMLResponse, 'base64').toString('utf8');

/** What a naive SP checks: some signature in the document, by the IdP's key, over the element it references. */
function someSignatureHolds(xml: string): boolean {
  const signature = new DOMParser()
    .parseFromString(xml, 'text/xml')
    .getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'Signature')[0];
  if (!signature) return false;
  const verifier = new SignedXml({ publicCert: idp.keys.certificatePem, getCertFromKeyInfo: () => null });
  verifier.loadSignature(signature);
  return verifier.checkSignature(xml);
}

/** What a naive SP reads: the first text node of Response/Assertion[1]/Subject/NameID. */
function naiveNameId(xml: string): string | null | undefined {
  const child = (parent: Element | null | undefined, name: string): Element | undefined =>
    Array.from(parent?.childNodes ?? []).find((node): node is Element => (node as Element).localName === name);
  const response = new DOMParser().parseFromString(xml, 'text/xml').documentElement;
  return child(child(child(response, 'Assertion'), 'Subject'), 'NameID')?.firstChild?.nodeValue;
}

describe('SamlIdp responses, read by node-saml', () => {
  it('a response whose assertion is signed verifies, and gives the NameID, issuer and attributes', async () => {
    const profile = await signIn({
      attributes: { email: 'ada@example.com', displayName: 'Ada' },
      assertionId: '_assertion-1',
    });

    expect(profile.nameID).toBe('ada@example.com');
    expect(profile.nameIDFormat).toBe('urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress');
    expect(profile.issuer).toBe(idp.entityId);
    expect(profile.attributes).toEqual({ email: 'ada@example.com', displayName: 'Ada' });
    expect(profile.inResponseTo).toBeUndefined(); // IdP-initiated: no InResponseTo
    // getAssertion() is xml2js's reading of the signed assertion: attributes under `$`, children in arrays.
    const { Assertion } = profile.getAssertion?.() as { Assertion: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(Assertion.$.ID).toBe('_assertion-1');
    expect(Assertion.Subject[0].SubjectConfirmation[0].SubjectConfirmationData[0].$.Recipient).toBe(ACS);
  });

  it('the certificate as node-saml idpCert may be the PEM or its base64 DER (as in the metadata)', async () => {
    await expect(signIn({}, serviceProvider({ idpCert: idp.keys.certificateBase64 }))).resolves.toMatchObject({
      nameID: 'ada@example.com',
    });
  });

  it('places the Signature right after the Issuer, by ID, with exclusive c14n, RSA-SHA256 and the certificate', () => {
    const xml = decoded(samlResponse({ assertionId: '_a1' }));

    expect(xml).toMatch(/<saml:Assertion ID="_a1"[^>]*><saml:Issuer>[^<]*<\/saml:Issuer><ds:Signature /);
    expect(xml).toContain('<ds:Reference URI="#_a1">');
    expect(xml).toContain('Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"');
    expect(xml).toContain('Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"');
    expect(xml).toContain(`<ds:X509Certificate>${idp.keys.certificateBase64}</ds:X509Certificate>`);
  });

  it.each(['response', 'both'] as const)('a response signed on %s verifies', async (sign) => {
    await expect(signIn({ sign })).resolves.toMatchObject({ nameID: 'ada@example.com' });
  });

  it('an unsigned response is refused', async () => {
    await expect(signIn({ sign: 'none' })).rejects.toThrow('Invalid signature');
  });

  it.each(['assertion', 'response'] as const)(
    'a response signed on %s by another key is refused (KeyInfo is not trusted)',
    async (sign) => {
      await expect(signIn({ sign, signingKeys: attackerKeys })).rejects.toThrow('Invalid signature');
    },
  );

  it.each(['assertion', 'response'] as const)('a NameID changed after signing the %s is refused', async (sign) => {
    expect(
      someSignatureHolds(
        decoded(samlResponse({ sign, attack: { kind: 'tamper-name-id', nameId: 'eve@example.com' } })),
      ),
    ).toBe(false);
    await expect(signIn({ sign, attack: { kind: 'tamper-name-id', nameId: 'eve@example.com' } })).rejects.toThrow(
      'Invalid signature',
    );
  });

  const wrappings = (['sibling', 'wrapped', 'extensions', 'object'] as WrappingVariant[]).flatMap((variant) =>
    (['assertion', 'both'] as const).map((sign) => [variant, sign] as const),
  );
  const wrappingRefusal: Record<WrappingVariant, string> = {
    sibling: 'Invalid signature: multiple assertions',
    wrapped: 'Invalid signature', // the Response's one assertion has no signature of its own
    extensions: 'Invalid signature',
    object: "Invalid signature: Referenced node does not refer to it's parent element",
  };
  it.each(wrappings)('XML signature wrapping (%s, signed on %s) is refused', async (variant, sign) => {
    const attack = { kind: 'wrapping', nameId: 'eve@example.com', variant } as const;
    const xml = decoded(samlResponse({ sign, attack }));
    expect(xml.match(/<saml:Assertion /g)).toHaveLength(2);
    expect(naiveNameId(xml)).toBe('eve@example.com');
    if (sign === 'assertion') expect(someSignatureHolds(xml)).toBe(true); // the signed assertion still verifies where it was moved

    // node-saml reads only the Response's Assertion children, and wants exactly one, signed by a signature that is
    // its own child and references it: the wrapped, unsigned copy is caught by one of these checks.
    await expect(signIn({ sign, attack })).rejects.toThrow(wrappingRefusal[variant]);
  });

  it('a comment inside the NameID still verifies, and node-saml reads the whole NameID', async () => {
    const attack = { kind: 'comment-in-name-id', insertAfter: 'ada@example.com' } as const;
    const xml = decoded(samlResponse({ nameId: 'ada@example.com.evil.test', attack }));
    expect(xml).toContain('ada@example.com<!---->.evil.test</saml:NameID>');
    expect(someSignatureHolds(xml)).toBe(true);
    expect(naiveNameId(xml)).toBe('ada@example.com');

    // node-saml reads the signed bytes (xml-crypto's getSignedReferences(), canonicalized without comments),
    // not the first text node of the NameID: it sees the full text, as the signer did.
    const profile = await signIn({ nameId: 'ada@example.com.evil.test', attack });
    expect(profile.nameID).toBe('ada@example.com.evil.test');
  });

  it('an expired assertion is refused, beyond the accepted clock skew', async () => {
    const now = new Date(Date.now() - 10 * 60_000);

    await expect(signIn({ now })).rejects.toThrow('SAML assertion expired');
  });

  it('an assertion for another audience is refused', async () => {
    await expect(signIn({ audience: 'https://other.test/sp' })).rejects.toThrow('audience mismatch');
  });

  it('node-saml does not check Recipient, Destination nor Issuer: the SP must', async () => {
    const profile = await signIn({
      recipient: 'https://evil.test/acs',
      destination: 'https://evil.test/acs',
      issuer: 'https://evil.test/idp',
    });

    expect(profile.issuer).toBe('https://evil.test/idp');
  });

  it('an error status answers without an assertion; node-saml reports the status', async () => {
    const status = 'urn:oasis:names:tc:SAML:2.0:status:Responder';

    await expect(signIn({ status })).rejects.toThrow('SAML provider returned Responder error');
  });
});

describe('SamlIdp endpoints', () => {
  it("parses node-saml's HTTP-Redirect AuthnRequest, records it at /sso, and its ID comes back as InResponseTo", async () => {
    const sp = serviceProvider({ validateInResponseTo: ValidateInResponseTo.always });
    const location = await sp.getAuthorizeUrlAsync('relay', undefined, {});

    const { request, relayState, url } = SamlIdp.parseRedirect(location);
    expect(url.origin + url.pathname).toBe(idp.ssoUrl);
    expect(relayState).toBe('relay');
    expect(request).toMatchObject({ issuer: SP, destination: idp.ssoUrl, acsUrl: ACS });
    expect(request.id).toMatch(/^_/);
    expect(request.xml).toContain('<samlp:AuthnRequest');

    const answer = await fetch(location);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('ok');
    expect(idp.requests.at(-1)?.request.id).toBe(request.id);

    const profile = await signIn({ inResponseTo: request.id }, sp);
    expect(profile.inResponseTo).toBe(request.id);
  });

  it('GET /metadata serves the IdP metadata', async () => {
    const before = idp.metadataRequests;
    const answer = await fetch(`${idp.url}/metadata`);

    expect(answer.headers.get('content-type')).toBe('application/samlmetadata+xml');
    const xml = await answer.text();
    expect(xml).toBe(idp.metadataXml());
    expect(xml).toContain(`entityID="${idp.entityId}"`);
    expect(xml).toContain(`<ds:X509Certificate>${idp.keys.certificateBase64}</ds:X509Certificate>`);
    expect(xml).toContain(`Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${idp.ssoUrl}"`);
    expect(xml).toContain('<md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>');
    expect(idp.metadataRequests).toBe(before + 1);
  });
});
