// The SPA's index.html with the running configuration written into its
// `<script id="chorus-config" type="application/json">` element (the page reads it at start-up).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '#config';
import type { PageConfig } from '#web-rules';

export type { PageConfig };

const configElement = /(<script id="chorus-config" type="application\/json">)[\s\S]*?(<\/script>)/;

export const pageConfigOf = (config: Config): PageConfig => ({
  productName: config.productName,
  googleSignInToken: config.google.signInToken,
  sentryDsn: config.sentryDsn ?? null,
  releaseId: config.releaseId,
  upgradeUrl: config.upgradeUrl ?? null,
  supportEmail: config.supportEmail ?? null,
});

/** JSON that cannot end the script element or open a comment in it, whatever the settings hold. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('>', '\\u003e')
    .replaceAll('&', '\\u0026')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
}

export function renderSpaPage(template: string, config: PageConfig): string {
  if (!configElement.test(template))
    throw new Error('index.html has no <script id="chorus-config" type="application/json"> element');
  return template.replace(
    configElement,
    (_match, open: string, close: string) => `${open}${scriptSafeJson(config)}${close}`,
  );
}

export class SpaPage {
  private cached: string | undefined;

  constructor(
    private readonly webRoot: string,
    private readonly config: PageConfig,
    /** Outside production index.html is read on each request, so a rebuilt SPA shows without a restart. */
    private readonly cache: boolean,
  ) {}

  /** The page, or undefined when the SPA has not been built. */
  html(): string | undefined {
    if (this.cached !== undefined) return this.cached;
    let template: string;
    try {
      template = readFileSync(join(this.webRoot, 'index.html'), 'utf8');
    } catch {
      return undefined;
    }
    const page = renderSpaPage(template, this.config);
    if (this.cache) this.cached = page;
    return page;
  }
}
