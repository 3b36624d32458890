/**
 * Codebase inspection for the builder: what the code already answers, each finding with `path:line`.
 */
export { inspectCodebase } from './inspect-codebase.js';
export { walkSourceFiles, SKIPPED_DIRS, type WalkLimits } from './walk.js';
export type {
  ConsumerFinding,
  EndpointFinding,
  Inspection,
  PaymentCallFinding,
  SchedulerFinding,
  TechFinding,
} from './types.js';
