// @chorus/openfeature-provider: Chorus's entitlements evaluated in the process (README.md).
export { ChorusEntitlementsProvider, type ChorusProviderOptions } from './chorus-provider.js';
