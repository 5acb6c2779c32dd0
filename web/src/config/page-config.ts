import { createSlice } from '@reduxjs/toolkit';

/**
 * Settings the server writes into the page (`<script id="chorus-config" type="application/json">`
 * in index.html), so a new product name or Google token needs no rebuild.
 */
export type PageConfig = {
  productName: string;
  googleSignInToken: string;
  sentryDsn: string | null;
  releaseId: string;
};

const PAGE_CONFIG_ELEMENT_ID = 'chorus-config';

// What `vite build` ships in index.html, and what a missing or broken setting falls back to.
export const defaultPageConfig: PageConfig = {
  productName: 'Chorus',
  googleSignInToken: '',
  sentryDsn: null,
  releaseId: 'dev',
};

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

export function readPageConfig(document: Document): PageConfig {
  let settings: unknown;
  try {
    settings = JSON.parse(document.getElementById(PAGE_CONFIG_ELEMENT_ID)?.textContent ?? '');
  } catch {
    return defaultPageConfig;
  }
  if (typeof settings !== 'object' || settings === null) return defaultPageConfig;
  const { productName, googleSignInToken, sentryDsn, releaseId } = settings as Record<string, unknown>;
  return {
    productName: text(productName) ?? defaultPageConfig.productName,
    googleSignInToken: typeof googleSignInToken === 'string' ? googleSignInToken.trim() : defaultPageConfig.googleSignInToken,
    sentryDsn: text(sentryDsn),
    releaseId: text(releaseId) ?? defaultPageConfig.releaseId,
  };
}

// Fixed for the page's lifetime: read once at start-up and preloaded into the store.
export const pageConfigSlice = createSlice({
  name: 'pageConfig',
  initialState: defaultPageConfig,
  reducers: {},
  selectors: {
    selectProductName: (config) => config.productName,
    selectGoogleSignInToken: (config) => config.googleSignInToken,
  },
});

export const { selectProductName, selectGoogleSignInToken } = pageConfigSlice.selectors;
