/** Sub-keys and fingerprints of a saga's records, all in the engine's store beside the outer key. */
import { fingerprintFields } from '../core/fingerprint.js';

/** `{key}:{step}`: the record of one forward step. */
export const stepKey = (key: string, step: string) => `${key}:${step}`;
/** `{key}:{step}:compensate`: the record of one compensation. */
export const compensationKey = (key: string, step: string) => `${key}:${step}:compensate`;

/** The outer record's fingerprint: the caller's, bound to the saga's name so two sagas never share a key. */
export const sagaFingerprint = (saga: string, fingerprint: string) => fingerprintFields(['saga', saga, fingerprint]);
/** A sub-record's fingerprint: bound to the saga, the step and its direction. */
export const stepFingerprint = (saga: string, fingerprint: string, step: string, direction: 'run' | 'compensate') =>
  fingerprintFields(['saga-step', saga, fingerprint, step, direction]);
