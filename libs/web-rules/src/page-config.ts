/**
 * What the server writes into the page (`<script id="chorus-config" type="application/json">` in
 * index.html) and the SPA reads at start-up: one shape for both sides, so a new setting cannot reach one alone.
 */
export type PageConfig = {
  productName: string;
  googleSignInToken: string;
  sentryDsn: string | null;
  releaseId: string;
  /** Where an owner stopped by a limit or a plan goes (UPGRADE_URL); null: nowhere to link. */
  upgradeUrl: string | null;
  /** Whom owners write to without an upgrade link (SUPPORT_EMAIL). */
  supportEmail: string | null;
};
