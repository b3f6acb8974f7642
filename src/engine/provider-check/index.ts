/** Checking a provider profile against the provider: what works and what to pin. The one module the rest of paybatch imports of this feature. */
export * from './check-provider.js';
