// An organization's SAML 2.0 identity provider on 127.0.0.1, for the service provider's end-to-end tests:
// metadata at /metadata, the sign-on endpoint at /sso (HTTP-Redirect, and HTTP-POST), and signed Responses built
// per test. The test POSTs `response()` to the SP itself, so it decides who signs in, what is signed, by which key,
// and which known attack (XML signature wrapping, comment in NameID, tampering) the SP must see through.
// The key and certificate come from selfsigned, the XML signatures from xml-crypto: nothing hand-rolled.
import { randomBytes, X509Certificate } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import { generate } from 'selfsigned';
import { SignedXml } from 'xml-crypto';

const ASSERTION_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
const PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';
const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
const EXCLUSIVE_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:';
export const EMAIL_ADDRESS_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
export const SUCCESS_STATUS = 'urn:oasis:names:tc:SAML:2.0:status:Success';

export type SamlIdpKeys = {
  privateKey: string;
  certificatePem: string;
  certificateBase64: string; /* DER, no PEM armor */
};

/** An RSA-2048 key and a self-signed SHA-256 certificate for it, as an IdP publishes in its metadata. */
export async function makeSamlKeys(commonName = 'chorus-e2e-idp'): Promise<SamlIdpKeys> {
  const pems = await generate([{ name: 'commonName', value: commonName }], { keySize: 2048, algorithm: 'sha256' });
  const certificateBase64 = new X509Certificate(pems.cert).raw.toString('base64');
  return { privateKey: pems.private, certificatePem: pems.cert, certificateBase64 };
}

export type SamlAuthnRequest = {
  id: string;
  issuer: string;
  destination: string;
  acsUrl: string | null;
  issueInstant: string;
  xml: string;
};
export type SamlRedirect = { request: SamlAuthnRequest; relayState: string | null; url: URL };

/**
 * XML signature wrapping ("On Breaking SAML", Somorovsky et al. 2012), against the assertion's signature. In each, the
 * Response's first (or only) Assertion child is an unsigned copy with its own ID and NameID; the signed one, untouched,
 * still verifies where it was moved:
 * - sibling: the copy just before the signed assertion (XSW3).
 * - wrapped: the copy in the signed one's place, holding it as its last child (XSW4).
 * - extensions: the same, the signed one inside a samlp:Extensions element of the copy (XSW7).
 * - object: the signed one's ds:Signature moved into the copy, the signed assertion inside that Signature's ds:Object
 * (XSW8).
 */
export type WrappingVariant = 'sibling' | 'wrapped' | 'extensions' | 'object';

/** Applied to the XML after it is signed. */
export type SamlAttack =
  /**
   * `<!---->` inside the NameID text, after `insertAfter`: exclusive c14n drops comments, so the signature still
   * verifies.
   */
  | { kind: 'comment-in-name-id'; insertAfter: string }
  /**
   * An unsigned copy of the assertion, with its own ID and this NameID, where a naive SP reads. Default variant:
   * wrapped.
   */
  | { kind: 'wrapping'; nameId: string; variant?: WrappingVariant }
  /** The NameID text changed after signing: the signature must fail. */
  | { kind: 'tamper-name-id'; nameId: string };

export type SamlResponseOptions = {
  audience: string; // the SP's entity id
  recipient: string; // the SP's ACS URL (SubjectConfirmationData@Recipient)
  destination?: string | null; // Response@Destination; default recipient; null: omitted
  inResponseTo?: string; // on the Response and SubjectConfirmationData; omitted: IdP-initiated
  nameId: string;
  nameIdFormat?: string; // default emailAddress
  attributes?: Record<string, string>;
  issuer?: string; // default the IdP's entity id, on Response and Assertion
  assertionId?: string;
  now?: Date; // IssueInstant, AuthnInstant
  notBefore?: Date; // default now - 30 s
  notOnOrAfter?: Date; // default now + 5 min; also SubjectConfirmationData@NotOnOrAfter
  sign?: 'response' | 'assertion' | 'both' | 'none'; // default assertion
  signingKeys?: SamlIdpKeys; // default the IdP's own; another key is the "signed by someone else" attack
  status?: string; // default Success; any other status answers without an assertion, as an IdP's error answer does
  attack?: SamlAttack;
};

const randomId = (): string => `_${randomBytes(16).toString('hex')}`;
const escapeXml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const attribute = (name: string, value: string | null | undefined): string =>
  value === null || value === undefined ? '' : ` ${name}="${escapeXml(value)}"`;
const byId = (id: string): string => `//*[@ID='${id}']`;

export class SamlIdp {
  readonly entityId: string;
  readonly ssoUrl: string;
  /** Each sign-on request the SP sent the browser to /sso with, in order. */
  readonly requests: SamlRedirect[] = [];
  metadataRequests = 0;
  /** Who the next browser at /sso is, and how its response is made: a page that POSTs it to the ACS at once. */
  private nextSignOn: { nameId: string; options: Partial<SamlResponseOptions> } | undefined;

  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly keys: SamlIdpKeys,
    entityId?: string,
  ) {
    this.entityId = entityId ?? `${url}/idp`;
    this.ssoUrl = `${url}/sso`;
    server.on('request', (request: IncomingMessage, response: ServerResponse) => void this.handle(request, response));
  }

  static async start(options: { entityId?: string; keys?: SamlIdpKeys } = {}): Promise<SamlIdp> {
    const keys = options.keys ?? (await makeSamlKeys());
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    const { port } = server.address() as AddressInfo;
    return new SamlIdp(server, `http://127.0.0.1:${port}`, keys, options.entityId);
  }

  metadataXml(): string {
    const service = (binding: string): string =>
      `<md:SingleSignOnService Binding="${BINDING}${binding}" Location="${escapeXml(this.ssoUrl)}"/>`;
    return (
      `<?xml version="1.0" encoding="UTF-8"?>` +
      `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="${DSIG_NS}" entityID="${escapeXml(this.entityId)}">` +
      `<md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="${PROTOCOL_NS}">` +
      `<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${this.keys.certificateBase64}</ds:X509Certificate>` +
      `</ds:X509Data></ds:KeyInfo></md:KeyDescriptor>` +
      `<md:NameIDFormat>${EMAIL_ADDRESS_FORMAT}</md:NameIDFormat>` +
      `${service('HTTP-Redirect')}${service('HTTP-POST')}` +
      `</md:IDPSSODescriptor></md:EntityDescriptor>`
    );
  }

  /**
   * The next browser sent to /sso is signed in as `nameId` at once: the answer is the HTTP-POST binding's page, a form
   * holding the signed response for that very request, submitted to the request's ACS as soon as it loads.
   */
  signsIn(nameId: string, options: Partial<SamlResponseOptions> = {}): void {
    this.nextSignOn = { nameId, options };
  }

  /** The AuthnRequest and RelayState of an HTTP-Redirect binding URL (the SP's Location header). */
  static parseRedirect(location: string): SamlRedirect {
    const url = new URL(location);
    const encoded = url.searchParams.get('SAMLRequest');
    if (encoded === null) throw new Error(`No SAMLRequest in ${location}`);
    // The Redirect binding DEFLATEs (raw, no zlib header) then base64-encodes.
    const xml = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
    return { request: parseAuthnRequest(xml), relayState: url.searchParams.get('RelayState'), url };
  }

  /** A Response for the SP's ACS, base64-encoded: the SAMLResponse form field of the HTTP-POST binding. */
  response(options: SamlResponseOptions): string {
    const now = options.now ?? new Date();
    const ids = { response: randomId(), assertion: options.assertionId ?? randomId() };
    const success = (options.status ?? SUCCESS_STATUS) === SUCCESS_STATUS;
    let xml = this.responseXml(
      options,
      now,
      ids.response,
      success ? this.assertionXml(options, now, ids.assertion) : '',
    );
    const sign = options.sign ?? 'assertion';
    const keys = options.signingKeys ?? this.keys;
    // The assertion first: the Response's signature then covers the assertion's.
    if (success && (sign === 'assertion' || sign === 'both')) xml = signElement(xml, ids.assertion, keys);
    if (sign === 'response' || sign === 'both') xml = signElement(xml, ids.response, keys);
    if (options.attack) xml = applyAttack(xml, options.attack);
    return Buffer.from(xml, 'utf8').toString('base64');
  }

  close(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.close((error) => (error ? reject(error) : resolve()));
      this.server.closeAllConnections();
    });
  }

  private responseXml(options: SamlResponseOptions, now: Date, id: string, assertion: string): string {
    const destination = options.destination === undefined ? options.recipient : options.destination;
    return (
      `<samlp:Response xmlns:samlp="${PROTOCOL_NS}" xmlns:saml="${ASSERTION_NS}" ID="${id}" Version="2.0" IssueInstant="${now.toISOString()}"` +
      `${attribute('Destination', destination)}${attribute('InResponseTo', options.inResponseTo)}>` +
      `<saml:Issuer>${escapeXml(options.issuer ?? this.entityId)}</saml:Issuer>` +
      `<samlp:Status><samlp:StatusCode Value="${escapeXml(options.status ?? SUCCESS_STATUS)}"/></samlp:Status>` +
      `${assertion}</samlp:Response>`
    );
  }

  private assertionXml(options: SamlResponseOptions, now: Date, id: string): string {
    const notBefore = options.notBefore ?? new Date(now.getTime() - 30_000);
    const notOnOrAfter = (options.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000)).toISOString();
    const attributes = Object.entries(options.attributes ?? {}).map(
      ([name, value]) =>
        `<saml:Attribute Name="${escapeXml(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">` +
        `<saml:AttributeValue>${escapeXml(value)}</saml:AttributeValue></saml:Attribute>`,
    );
    return (
      `<saml:Assertion ID="${id}" Version="2.0" IssueInstant="${now.toISOString()}">` +
      `<saml:Issuer>${escapeXml(options.issuer ?? this.entityId)}</saml:Issuer>` +
      `<saml:Subject><saml:NameID Format="${escapeXml(options.nameIdFormat ?? EMAIL_ADDRESS_FORMAT)}">${escapeXml(options.nameId)}</saml:NameID>` +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData` +
      `${attribute('InResponseTo', options.inResponseTo)} NotOnOrAfter="${notOnOrAfter}" Recipient="${escapeXml(options.recipient)}"/>` +
      `</saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions NotBefore="${notBefore.toISOString()}" NotOnOrAfter="${notOnOrAfter}">` +
      `<saml:AudienceRestriction><saml:Audience>${escapeXml(options.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="${randomId()}"><saml:AuthnContext>` +
      `<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>` +
      `</saml:AuthnContext></saml:AuthnStatement>` +
      (attributes.length > 0 ? `<saml:AttributeStatement>${attributes.join('')}</saml:AttributeStatement>` : '') +
      `</saml:Assertion>`
    );
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.url);
    if (request.method === 'GET' && url.pathname === '/metadata') {
      this.metadataRequests += 1;
      response.writeHead(200, { 'content-type': 'application/samlmetadata+xml' }).end(this.metadataXml());
      return;
    }
    // A browser at the sign-on page asks for this; a 404 would be a console error in the browser tests.
    if (url.pathname === '/favicon.ico') {
      response.writeHead(204).end();
      return;
    }
    if (url.pathname !== '/sso' || (request.method !== 'GET' && request.method !== 'POST')) {
      response.writeHead(404).end();
      return;
    }
    try {
      const redirect =
        request.method === 'GET' ? SamlIdp.parseRedirect(url.href) : parsePost(url, await readBody(request));
      this.requests.push(redirect);
      const signOn = this.nextSignOn;
      this.nextSignOn = undefined;
      if (signOn === undefined || redirect.request.acsUrl === null) {
        response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
        return;
      }
      const { request: authn, relayState } = redirect;
      const acs = redirect.request.acsUrl;
      const samlResponse = this.response({
        audience: authn.issuer,
        recipient: acs,
        inResponseTo: authn.id,
        nameId: signOn.nameId,
        ...signOn.options,
      });
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(autoPostPage(acs, samlResponse, relayState));
    } catch (error) {
      response.writeHead(400, { 'content-type': 'text/plain' }).end(String(error));
    }
  }
}

/**
 * The element with this ID signed enveloped (RSA-SHA256, SHA-256, exclusive c14n), its Signature right after its
 * Issuer.
 */
function signElement(xml: string, id: string, keys: SamlIdpKeys): string {
  const signer = new SignedXml({
    privateKey: keys.privateKey,
    publicCert: keys.certificatePem, // KeyInfo/X509Data/X509Certificate
    canonicalizationAlgorithm: EXCLUSIVE_C14N,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  });
  // xml-crypto reads the ID attribute ("ID" is among its defaults), so the Reference URI is "#<ID>".
  signer.addReference({
    xpath: byId(id),
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', EXCLUSIVE_C14N],
  });
  // The SAML schema puts ds:Signature right after saml:Issuer.
  signer.computeSignature(xml, {
    prefix: 'ds',
    location: { reference: `${byId(id)}/*[local-name()='Issuer']`, action: 'after' },
  });
  return signer.getSignedXml();
}

function applyAttack(xml: string, attack: SamlAttack): string {
  const document = parseXml(xml);
  const response = document.documentElement;
  const assertion = response ? childNamed(response, 'Assertion') : undefined;
  const nameId = assertion?.getElementsByTagNameNS(ASSERTION_NS, 'NameID')[0];
  if (!response || !assertion || !nameId) throw new Error('The attack needs a Response with an assertion');
  if (attack.kind === 'tamper-name-id') nameId.textContent = attack.nameId;
  if (attack.kind === 'comment-in-name-id') {
    const text = nameId.textContent ?? '';
    if (!text.startsWith(attack.insertAfter))
      throw new Error(`The NameID ${text} does not start with ${attack.insertAfter}`);
    nameId.textContent = attack.insertAfter;
    nameId.appendChild(document.createComment(''));
    nameId.appendChild(document.createTextNode(text.slice(attack.insertAfter.length)));
  }
  if (attack.kind === 'wrapping') wrap(response, assertion, attack.nameId, attack.variant ?? 'wrapped');
  return new XMLSerializer().serializeToString(document);
}

/**
 * An unsigned copy of the signed assertion, with its own ID and NameID, placed where a naive SP reads the assertion.
 */
function wrap(response: Element, signed: Element, nameId: string, variant: WrappingVariant): void {
  const document = response.ownerDocument;
  const evil = signed.cloneNode(true) as Element;
  const copiedSignature = childNamed(evil, 'Signature');
  if (copiedSignature) evil.removeChild(copiedSignature);
  evil.setAttribute('ID', randomId());
  const evilNameId = evil.getElementsByTagNameNS(ASSERTION_NS, 'NameID')[0];
  if (evilNameId) evilNameId.textContent = nameId;
  if (variant === 'sibling') response.insertBefore(evil, signed);
  else response.replaceChild(evil, signed);
  if (variant === 'wrapped') evil.appendChild(signed);
  if (variant === 'extensions')
    evil.appendChild(document.createElementNS(PROTOCOL_NS, 'samlp:Extensions')).appendChild(signed);
  if (variant === 'object') {
    const signature = childNamed(signed, 'Signature');
    if (!signature) throw new Error('The object variant needs a signed assertion');
    signed.removeChild(signature);
    signature.appendChild(document.createElementNS(DSIG_NS, 'ds:Object')).appendChild(signed);
    evil.insertBefore(signature, childNamed(evil, 'Issuer')?.nextSibling ?? null);
  }
}

function childNamed(parent: Element, localName: string): Element | undefined {
  return Array.from(parent.childNodes).find(
    (node): node is Element => node.nodeType === 1 && (node as Element).localName === localName,
  );
}

function parseXml(xml: string): Document {
  const fail = (message: string): never => {
    throw new Error(`Invalid XML: ${message}`);
  }; // xmldom only logs by default
  return new DOMParser({ errorHandler: { warning: () => undefined, error: fail, fatalError: fail } }).parseFromString(
    xml,
    'text/xml',
  );
}

function parseAuthnRequest(xml: string): SamlAuthnRequest {
  const root = parseXml(xml).documentElement;
  if (!root || root.localName !== 'AuthnRequest' || root.namespaceURI !== PROTOCOL_NS)
    throw new Error(`Not an AuthnRequest: ${xml}`);
  const read = (name: string): string => root.getAttribute(name) ?? ''; // xmldom answers '' for a missing attribute
  const issuer = childNamed(root, 'Issuer')?.textContent ?? '';
  return {
    id: read('ID'),
    issuer,
    destination: read('Destination'),
    acsUrl: read('AssertionConsumerServiceURL') || null,
    issueInstant: read('IssueInstant'),
    xml,
  };
}

/** The HTTP-POST binding: the form's SAMLRequest is base64 of the XML, not deflated; read into the Redirect's shape. */
function parsePost(url: URL, body: string): SamlRedirect {
  const form = new URLSearchParams(body);
  const encoded = form.get('SAMLRequest');
  if (encoded === null) throw new Error('No SAMLRequest in the form');
  return {
    request: parseAuthnRequest(Buffer.from(encoded, 'base64').toString('utf8')),
    relayState: form.get('RelayState'),
    url,
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The HTTP-POST binding as identity providers send it: a form that submits itself. */
function autoPostPage(acs: string, samlResponse: string, relayState: string | null): string {
  const relay = relayState === null ? '' : `<input type="hidden" name="RelayState" value="${escapeXml(relayState)}">`;
  return (
    `<!doctype html><html><body onload="document.forms[0].submit()"><form method="post" action="${escapeXml(acs)}">` +
    `<input type="hidden" name="SAMLResponse" value="${samlResponse}">${relay}<noscript><button>Continue</button></noscript></form></body></html>`
  );
}
