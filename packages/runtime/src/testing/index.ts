/** `idempotency-builder/testing`: the store conformance suite and its helpers (needs vitest). */
export { runStoreConformance, binaryResponse, testKey, type StoreConformanceOptions } from './conformance.js';
