import { createSlice } from '@reduxjs/toolkit';
import type { PageConfig } from '@libs/web-rules/page-config';

/** Settings the server writes into the page, so a new product name or Google token needs no rebuild. */
export type { PageConfig };

const PAGE_CONFIG_ELEMENT_ID = 'chorus-config';

// Also what a missing or broken setting falls back to.
export const defaultPageConfig: PageConfig = {
  productName: 'Chorus',
  googleSignInToken: '',
  sentryDsn: null,
  releaseId: 'dev',
  upgradeUrl: null,
  supportEmail: null,
};

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

/** The server checks UPGRADE_URL too, but a script URL must never reach an href. */
function webAddress(value: unknown): string | null {
  const address = text(value);
  if (address === null) return null;
  try {
    return ['http:', 'https:'].includes(new URL(address).protocol) ? address : null;
  } catch {
    return null;
  }
}

const mailAddress = (value: unknown): string | null => {
  const address = text(value);
  return address !== null && /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/.test(address) ? address : null;
};

export function readPageConfig(document: Document): PageConfig {
  let settings: unknown;
  try {
    settings = JSON.parse(document.getElementById(PAGE_CONFIG_ELEMENT_ID)?.textContent ?? '');
  } catch {
    return defaultPageConfig;
  }
  if (typeof settings !== 'object' || settings === null) return defaultPageConfig;
  const { productName, googleSignInToken, sentryDsn, releaseId, upgradeUrl, supportEmail } = settings as Record<
    string,
    unknown
  >;
  return {
    productName: text(productName) ?? defaultPageConfig.productName,
    googleSignInToken:
      typeof googleSignInToken === 'string' ? googleSignInToken.trim() : defaultPageConfig.googleSignInToken,
    sentryDsn: text(sentryDsn),
    releaseId: text(releaseId) ?? defaultPageConfig.releaseId,
    upgradeUrl: webAddress(upgradeUrl),
    supportEmail: mailAddress(supportEmail),
  };
}

export const pageConfigSlice = createSlice({
  name: 'pageConfig',
  initialState: defaultPageConfig,
  reducers: {},
  selectors: {
    selectProductName: (config) => config.productName,
    selectGoogleSignInToken: (config) => config.googleSignInToken,
    selectUpgradeUrl: (config) => config.upgradeUrl,
    selectSupportEmail: (config) => config.supportEmail,
  },
});

export const { selectProductName, selectGoogleSignInToken, selectUpgradeUrl, selectSupportEmail } =
  pageConfigSlice.selectors;
