/** Runs a batch of messages with bounded concurrency and keeps each one's result in order. */
import { InvalidOptionsError } from '../../core/errors.js';

/**
 * Applies `each` to every item, at most `concurrency` at a time; results keep the input order.
 * `each` must not throw (the consumers' `processMessage` never does).
 * @example const decisions = await mapBatch(records, (record) => processMessage(resolved, view, record), 8);
 */
export async function mapBatch<M, R>(items: readonly M[], each: (item: M, index: number) => Promise<R>, concurrency: number): Promise<R[]> {
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new InvalidOptionsError('Option "concurrency" must be an integer >= 1.');
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await each(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
  return results;
}
