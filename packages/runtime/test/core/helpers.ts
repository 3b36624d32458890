/** Shared helpers for the core tests: a movable clock, a counting metrics sink, a capturing logger. */
import type { LogFields, Logger } from '../../src/core/logger.js';
import type { MetricName, MetricsSink } from '../../src/core/metrics.js';

export function manualClock(start = Date.UTC(2026, 0, 1)) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

export function countingMetrics() {
  const counts = new Map<string, number>();
  const observations: { name: MetricName; value: number }[] = [];
  const sink: MetricsSink = {
    increment(name, _labels, by = 1) {
      counts.set(name, (counts.get(name) ?? 0) + by);
    },
    observe(name, value) {
      observations.push({ name, value });
    },
    gauge(name, value) {
      counts.set(name, value);
    },
  };
  return { sink, count: (name: MetricName) => counts.get(name) ?? 0, observations };
}

export function capturingLogger() {
  const lines: string[] = [];
  const write = (level: string) => (fields: LogFields, message: string) => {
    lines.push(`${level} ${message} ${JSON.stringify(fields)}`);
  };
  const logger: Logger = { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
  return { logger, lines };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
