/** `idempotency-builder/testing`: the store conformance suite and its helpers (needs vitest). */
export { runStoreConformance, binaryResponse, testKey, type StoreConformanceOptions } from './conformance.js';
export { runScenario, scenarioResponse, scenarioBody, type ScenarioRunOptions } from './scenario-runner.js';
export { runAdapterSuite, SuiteState, createSuiteClient, type AdapterSuiteOptions, type AdapterSuiteSkips, type SuiteServer, type SuiteRoute, type SuiteRequest, type SuiteResponse, type CallOptions, type CallResult, type SuiteClient } from './adapter-suite.js';
