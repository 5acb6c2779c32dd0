import { afterEach, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { defaultPageConfig, readPageConfig } from './page-config-slice';

const withConfigElement = (json: string) => {
  document.head.innerHTML = `<script id="chorus-config" type="application/json">${json}</script>`;
  return document;
};

describe('reading the page config', () => {
  afterEach(() => {
    document.head.innerHTML = '';
  });

  it('reads what the server wrote into the page', () => {
    const config = readPageConfig(
      withConfigElement(
        '{"productName":"Acme Voice","googleSignInToken":"tok-1","sentryDsn":"https://k@o1.ingest.example/7","releaseId":"2024.5.1"}',
      ),
    );
    expect(config).toEqual({
      productName: 'Acme Voice',
      googleSignInToken: 'tok-1',
      sentryDsn: 'https://k@o1.ingest.example/7',
      releaseId: '2024.5.1',
      upgradeUrl: null,
      supportEmail: null,
    });
  });

  it('falls back to the defaults without the element', () => {
    expect(readPageConfig(document)).toEqual(defaultPageConfig);
  });

  it.each(['', 'not json', '{"productName":', 'null', '42', '"Chorus"', '{{productName}}'])(
    'falls back to the defaults when the content is %j',
    (json) => {
      expect(readPageConfig(withConfigElement(json))).toEqual(defaultPageConfig);
    },
  );

  it('falls back key by key when a value has the wrong type or is blank', () => {
    const config = readPageConfig(
      withConfigElement(
        '{"productName":"  ","googleSignInToken":7,"sentryDsn":"","releaseId":false,"extra":"ignored"}',
      ),
    );
    expect(config).toEqual(defaultPageConfig);
  });

  it('trims the values', () => {
    const config = readPageConfig(
      withConfigElement('{"productName":" Acme ","googleSignInToken":" t ","sentryDsn":null,"releaseId":" r1 "}'),
    );
    expect(config).toEqual({
      ...defaultPageConfig,
      productName: 'Acme',
      googleSignInToken: 't',
      sentryDsn: null,
      releaseId: 'r1',
    });
  });

  it('reads the upgrade link and the support address', () => {
    const config = readPageConfig(
      withConfigElement('{"upgradeUrl":" https://billing.example.com/portal ","supportEmail":"help@example.com"}'),
    );
    expect(config).toMatchObject({
      upgradeUrl: 'https://billing.example.com/portal',
      supportEmail: 'help@example.com',
    });
  });

  // A page config the server did not check (an old server, an edited page) must not put a script URL in a link.
  const unsafe = [
    'javascript:alert(document.cookie)',
    ' JAVASCRIPT:alert(1)',
    'data:text/html,x',
    'vbscript:x',
    '/relative',
    42,
  ];
  it.each(unsafe)('drops the upgrade link %j', (value) => {
    expect(readPageConfig(withConfigElement(JSON.stringify({ upgradeUrl: value }))).upgradeUrl).toBeNull();
  });

  it('matches what web/index.html ships: the same element and the defaults', () => {
    const html = readFileSync(new URL('../../index.html', import.meta.url), 'utf8');
    document.documentElement.innerHTML = new DOMParser().parseFromString(html, 'text/html').documentElement.innerHTML;
    const element = document.getElementById('chorus-config');
    expect(element?.getAttribute('type')).toBe('application/json');
    expect(JSON.parse(element?.textContent ?? '')).toEqual(defaultPageConfig);
  });
});
