/**
 * Action names in the user's domain (`createPayment`, `refundPayment`, `processStripeWebhook`)
 * derived from routes, handler names, queues and schedules. Names end up in keys and code
 * identifiers, so they are letters and digits only.
 */

/** Handler names that say nothing about the action. */
const GENERIC_HANDLERS = new Set([
  'create', 'update', 'delete', 'remove', 'destroy', 'handle', 'handler', 'post', 'put', 'patch', 'index', 'store', 'receive',
  'process', 'execute', 'run', 'main', 'webhook', 'callback', 'action', 'submit', 'perform', 'call', 'invoke',
]);

const VERB_BY_METHOD: Record<string, string> = { POST: 'create', PUT: 'replace', PATCH: 'update', DELETE: 'delete' };

/**
 * Splits on anything that is not a letter or digit and on camelCase humps, then camel-cases.
 * @example camelCase('create_order') // 'createOrder'; camelCase('order.paid') // 'orderPaid'
 */
export function camelCase(text: string): string {
  const words = text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
  const joined = words.map((word, index) => (index === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1))).join('');
  const cleaned = joined.replace(/^[0-9]+/, '');
  return cleaned || 'action';
}

/**
 * English plural → singular for resource names (good enough for route nouns).
 * @example singular('payments') // 'payment'; singular('deliveries') // 'delivery'
 */
export function singular(word: string): string {
  if (/ies$/i.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ss|us|is)$/i.test(word)) return word;
  if (/(xes|ches|shes|sses)$/i.test(word)) return word.slice(0, -2);
  if (/s$/i.test(word)) return word.slice(0, -1);
  return word;
}

const capitalize = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * Name for an HTTP action: a meaningful handler name wins, otherwise verb + resource from the route.
 * @example httpActionName('POST', '/payments/:id/refund') // 'refundPayment'
 * @example httpActionName('POST', '/api/v1/orders', 'create') // 'createOrder'
 */
export function httpActionName(method: string, route: string, handler?: string): string {
  // A single-word handler (`refund`) is a verb without its resource: the route names it better.
  const singleWord = handler !== undefined && /^[a-z]+$/.test(handler);
  if (handler && !singleWord && !GENERIC_HANDLERS.has(handler.toLowerCase()) && !/^(POST|PUT|PATCH|DELETE)$/.test(handler) && !handler.includes('#')) {
    return camelCase(handler);
  }
  const segments = route.split('/').filter((s) => s && !/^(api|v\d+)$/i.test(s));
  const statics = segments.filter((s) => !/^[:{*[]/.test(s) && !/^\(.*\)$/.test(s));
  const lastIndex = segments.length - 1;
  const last = segments[lastIndex];
  // `/payments/:id/refund`: a static segment after a parameter is a verb on the resource.
  if (last && statics.length >= 2 && segments.slice(0, lastIndex).some((s) => /^[:{[]/.test(s)) && !/^[:{*[]/.test(last)) {
    const resource = statics[statics.length - 2] ?? 'resource';
    return camelCase(`${singular(last)} ${singular(resource)}`);
  }
  const resource = statics[statics.length - 1] ?? 'resource';
  return camelCase(`${VERB_BY_METHOD[method] ?? 'handle'} ${singular(resource)}`);
}

/**
 * Name for a webhook receiver, after the provider when the route or call names one.
 * @example webhookActionName('/hooks/stripe') // 'processStripeWebhook'
 */
export function webhookActionName(route: string): string {
  const provider = /(stripe|adyen|paypal|github|shopify|twilio|slack)/i.exec(route)?.[1];
  return provider ? `process${capitalize(provider.toLowerCase())}Webhook` : 'processWebhook';
}

/**
 * Name for a message consumer: its task, worker class or listener method when it has a meaningful
 * one, else after its queue/topic/subject.
 * @example consumerActionName('order.paid') // 'handleOrderPaid'
 * @example consumerActionName(undefined, 'charge_subscriptions') // 'chargeSubscriptions'
 * @example consumerActionName(undefined, 'delete', 'documents/bulk_edit.py:361') // 'bulkEditDelete'
 */
export function consumerActionName(channel: string | undefined, handler?: string, location?: string): string {
  const task = handler?.slice(handler.lastIndexOf('.') + 1).replace(/^.*::/, '');
  if (task && !GENERIC_HANDLERS.has(task.toLowerCase()) && !/^(consume|listen|on_?message|handle_?message|receive)$/i.test(task)) return camelCase(task);
  if (channel) return camelCase(`handle ${channel.replace(/^.*[/:]/, '').split(',')[0] ?? ''}`);
  // A generic task name (`delete`) is qualified by its module (`bulk_edit.py` → `bulkEditDelete`), never a bare `handleMessage`.
  const module = location?.replace(/:\d+$/, '').split('/').pop()?.replace(/\.[^.]+$/, '');
  return task && module ? camelCase(`${module} ${task}`) : 'handleMessage';
}

/**
 * Name for a scheduled job: a method name when there is one, else the file it lives in.
 * @example jobActionName('src/jobs/reconcile.ts:5') // 'runReconcile'
 */
export function jobActionName(location: string, method?: string): string {
  // A beat entry names its task by module path (`billing.tasks.charge_subscriptions`): the task is the last part.
  const task = method?.slice(method.lastIndexOf('.') + 1).replace(/^.*::/, '');
  if (task && !GENERIC_HANDLERS.has(task.toLowerCase())) return camelCase(task);
  const file = location.replace(/:\d+$/, '').split('/').pop() ?? 'job';
  const base = file.replace(/\.[^.]+$/, '').replace(/\.(job|cron|task)$/, '');
  return camelCase(`run ${base}`);
}

/**
 * Makes action names unique. A name used more than once is qualified by what tells its actions
 * apart — the HTTP method (`followProfile` for POST, `deleteFollowProfile` for DELETE) — and
 * takes a counter only when nothing else differs.
 * @example uniqueNames(['followProfile', 'followProfile'], [{ method: 'POST', route: '/profiles/:u/follow' }, { method: 'DELETE', route: '/profiles/:u/follow' }])
 * // ['followProfile', 'deleteFollowProfile']
 */
export function uniqueNames(names: readonly string[], sources: readonly ({ readonly method?: string; readonly route?: string } | undefined)[] = []): string[] {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  const taken = new Set<string>();
  const firstOfName = new Set<string>();
  return names.map((name, index) => {
    let candidate = name;
    if ((counts.get(name) ?? 0) > 1 && firstOfName.has(name)) {
      const method = sources[index]?.method?.toLowerCase();
      const verb = method === 'delete' ? 'delete' : method === 'put' ? 'replace' : method === 'patch' ? 'update' : undefined;
      if (verb) candidate = camelCase(`${verb} ${name}`);
    }
    firstOfName.add(name);
    let counter = 2;
    const base = candidate;
    while (taken.has(candidate)) candidate = `${base}${counter++}`;
    taken.add(candidate);
    return candidate;
  });
}
