/**
 * Runs the store's Lua scripts: EVALSHA first; after NOSCRIPT (a cold or flushed script cache)
 * ONE shared SCRIPT LOAD per script, awaited by every caller that met it, then EVALSHA again —
 * EVAL with the full source only if the script is still missing (another cluster node). A burst
 * of 30,000 requests on a cold cache thus sends one SCRIPT LOAD, not 30,000 script sources down
 * one connection. In durable mode WAIT goes on the same connection, pipelined with the script,
 * so a write plus its replication check is still one round trip.
 */
import type { RedisArgument, RedisCommand, RedisReply, RedisResult } from './client-port.js';

/**
 * A bundled script. Its source opens with its versioned name (`idempotency-builder:claim@1`),
 * so two library versions whose scripts differ also differ in SHA1 and never run each other's
 * script; nothing is ever registered under a name on the server or on the caller's client.
 */
export interface LuaScript {
  readonly name: string;
  readonly sha1: string;
  readonly source: string;
}

export interface ScriptCall {
  readonly script: LuaScript;
  /** Keys of ONE record (one hash slot). */
  readonly keys: readonly string[];
  readonly args: readonly RedisArgument[];
}

/** Durable mode: after each write, WAIT for this many replicas, at most this long. */
export interface ReplicaWait {
  readonly count: number;
  readonly timeoutMs: number;
}

export interface ScriptRun {
  /** One reply per call, in order. */
  readonly replies: RedisReply[];
  /** Replicas that acknowledged every write so far on this connection; null without WAIT. */
  readonly replicas: number | null;
}

/** Sends a batch in order on one connection (`RedisPort.send` bound to a key, or a node's pipeline). */
export type Pipeline = (commands: readonly RedisCommand[]) => Promise<RedisResult[]>;

const isNoScript = (result: RedisResult) => result instanceof Error && result.message.startsWith('NOSCRIPT');

const evalCommand = (verb: 'EVALSHA' | 'EVAL', { script, keys, args }: ScriptCall): RedisCommand => [
  verb,
  verb === 'EVALSHA' ? script.sha1 : script.source,
  String(keys.length),
  ...keys,
  ...args,
];

const waitCommand = (wait: ReplicaWait): RedisCommand => ['WAIT', String(wait.count), String(wait.timeoutMs)];

/**
 * Runs `calls` (pipelined, in order) and, with `wait`, WAIT after them. Throws the first error
 * other than NOSCRIPT; calls that met NOSCRIPT are sent again with EVAL, in their order.
 * @example
 * const { replies, replicas } = await runScripts((c) => port.send(keys.record, c), [{ script, keys, args }], wait);
 */
export async function runScripts(pipeline: Pipeline, calls: readonly ScriptCall[], wait?: ReplicaWait | null): Promise<ScriptRun> {
  if (calls.length === 1 && !wait) {
    // The hot path (one record operation, no WAIT): one EVALSHA, nothing else allocated.
    const [result] = await pipeline([evalCommand('EVALSHA', calls[0]!)]);
    if (result === undefined) throw new Error('Redis answered 0 of 1 commands.');
    if (!(result instanceof Error)) return { replies: [result], replicas: null };
    if (!isNoScript(result)) throw result;
  }
  return runBatch(pipeline, calls, wait);
}

async function runBatch(pipeline: Pipeline, calls: readonly ScriptCall[], wait?: ReplicaWait | null): Promise<ScriptRun> {
  const replies: (RedisReply | undefined)[] = new Array(calls.length);
  let pending = calls.map((call, index) => ({ call, index }));
  let verb: 'EVALSHA' | 'EVAL' = 'EVALSHA';
  let loaded = false;
  let replicas: number | null = null;
  while (pending.length > 0) {
    const commands = pending.map(({ call }) => evalCommand(verb, call));
    if (wait) commands.push(waitCommand(wait));
    const results = await pipeline(commands);
    if (results.length !== commands.length) throw new Error(`Redis answered ${results.length} of ${commands.length} commands.`);
    const retry: typeof pending = [];
    for (const [position, item] of pending.entries()) {
      const result = results[position]!;
      if (verb === 'EVALSHA' && isNoScript(result)) retry.push(item);
      else if (result instanceof Error) throw result;
      else replies[item.index] = result;
    }
    if (wait) {
      const acknowledged = results[results.length - 1]!;
      if (acknowledged instanceof Error) throw acknowledged;
      replicas = Number(acknowledged);
    }
    pending = retry;
    if (pending.length === 0) break;
    if (!loaded) {
      loaded = true;
      const scripts = new Map(pending.map(({ call }) => [call.script.sha1, call.script]));
      // A failed load is not fatal: EVAL below still caches the script.
      const ok = await Promise.all([...scripts.values()].map((script) => loadOnce(pipeline, script).then(() => true, () => false)));
      if (ok.every(Boolean)) continue; // EVALSHA again
    }
    verb = 'EVAL';
  }
  return { replies: replies as RedisReply[], replicas };
}

/** SCRIPT LOADs in flight, by SHA1: concurrent callers that met NOSCRIPT share one. */
const loading = new Map<string, Promise<void>>();

function loadOnce(pipeline: Pipeline, script: LuaScript): Promise<void> {
  let load = loading.get(script.sha1);
  if (!load) {
    load = pipeline([['SCRIPT', 'LOAD', script.source]])
      .then(([result]) => {
        if (result instanceof Error) throw result;
      })
      .finally(() => loading.delete(script.sha1));
    loading.set(script.sha1, load);
  }
  return load;
}
