/** MQTT topic filter matching (`+` one level, `#` the rest), so the consumer only takes its own subscription's messages. */

/**
 * True when `topic` matches `filter`. A `$share/<group>/` prefix is ignored, as brokers
 * deliver the plain topic for shared subscriptions.
 * @example topicMatches('orders/+/created', 'orders/eu/created') // true
 */
export function topicMatches(filter: string, topic: string): boolean {
  const plain = filter.startsWith('$share/') ? filter.split('/').slice(2).join('/') : filter;
  const wanted = plain.split('/');
  const parts = topic.split('/');
  for (let i = 0; i < wanted.length; i++) {
    if (wanted[i] === '#') return true;
    if (i >= parts.length) return false;
    if (wanted[i] !== '+' && wanted[i] !== parts[i]) return false;
  }
  return wanted.length === parts.length;
}
