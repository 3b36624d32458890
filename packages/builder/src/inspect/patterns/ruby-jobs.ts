/**
 * Ruby background jobs as consumers: Sidekiq (`include Sidekiq::Job` / `Sidekiq::Worker`, its
 * `sidekiq_options`), ActiveJob (`< ApplicationJob`, `queue_as`, `retry_on`), Sneakers and Karafka
 * consumers; and `Sidekiq::Cron::Job.create(…)` schedules written in Ruby. Each names its class.
 */
import { formatLocation } from '../location.js';
import type { Broker, ConsumerFinding, SchedulerFinding } from '../types.js';
import { matchesWithLines } from './line-patterns.js';

/** The class a line sits in: the nearest `class X` above it, named with its modules (`Billing::ChargeWorker`). */
function classAbove(lines: readonly string[], line: number): { name: string; line: number } | undefined {
  for (let i = line - 1; i >= 0; i -= 1) {
    // Also the compact `module Billing; class ChargeWorker`.
    const m = /(?:^|;)\s*class\s+([A-Z][\w:]*)/.exec(lines[i] ?? '');
    if (m) return { name: qualifiedName(lines, i), line: i + 1 };
  }
  return undefined;
}

/**
 * The full constant name of the class declared on line `index` (0-based): the `module`s and
 * `class`es still open around it, read from the top by indentation — `module Billing` then
 * `class ChargeWorker` is `Billing::ChargeWorker`, as Sidekiq and ActiveJob name the job. A compact
 * `module Billing; class ChargeWorker` line opens both.
 */
function qualifiedName(lines: readonly string[], index: number): string {
  const open: Array<{ indent: number; names: string[] }> = [];
  for (let i = 0; i <= index; i += 1) {
    const text = lines[i] ?? '';
    const indent = /^\s*/.exec(text)?.[0].length ?? 0;
    if (/^\s*end\b/.test(text)) {
      // An `end` closes what opened at its indentation; deeper blocks (`def`, `do`) were never pushed.
      while (open.length > 0 && (open[open.length - 1]?.indent ?? 0) >= indent) open.pop();
      continue;
    }
    const names = [...text.matchAll(/(?:^|;)\s*(?:module|class)\s+([A-Z][\w:]*)/g)].map((m) => m[1] ?? '');
    // `class Foo; end` or `module Foo; end` on one line closes itself.
    if (names.length > 0 && !/\bend\s*$/.test(text)) {
      while (open.length > 0 && (open[open.length - 1]?.indent ?? 0) >= indent) open.pop();
      open.push({ indent, names });
    }
  }
  return open.flatMap((o) => o.names).join('::');
}

/** The text of a class from its `class` line to the next top-level class (enough for option lookups). */
function classBody(lines: readonly string[], start: number): string {
  const end = lines.findIndex((l, i) => i >= start && /^\s*class\s/.test(l));
  return lines.slice(start - 1, end < 0 ? undefined : end).join('\n');
}

/**
 * Sidekiq's JobRetry: `retry: false` discards a failing job (no retry, no Dead set), `retry: 0`
 * sends it straight to the Dead set, otherwise 25 retries (about three weeks) then the Dead set.
 * BasicFetch removes a job from Redis when it fetches it: a job still running at the end of the
 * shutdown timeout (25 s) is pushed back, one in a process that dies is lost (Pro's super_fetch
 * recovers it).
 */
function sidekiqRedelivery(body: string, location: string): string {
  const retry = /sidekiq_options[^\n]*\bretry:\s*(false|0|\d+)/.exec(body)?.[1];
  const retries = retry === 'false'
    ? `retries are off (\`retry: false\`, ${location}): a job that raises is discarded — not retried, not kept in the Dead set`
    : retry === '0'
      ? `retries are off (\`retry: 0\`, ${location}): a job that raises goes straight to the Dead set, re-run only by hand`
      : `a job that raises is retried${retry ? ` up to ${retry} times (\`retry: ${retry}\`)` : ' (25 times over about three weeks by default)'}, re-running \`perform\` from the start, then moved to the Dead set`;
  return `${retries}; a job still running when the shutdown timeout (25 s by default) ends is pushed back to Redis and runs again, and one whose process dies is lost unless reliable fetch (Sidekiq Pro) re-runs it — side effects before the failure repeat`;
}

/** ActiveJob's `retry_on` defaults to 5 attempts, then re-raises to the queue adapter (Sidekiq retries it again). */
function activeJobRedelivery(body: string): string {
  const retryOn = /^\s*retry_on((?:\s+|\()[^\n]+)/m.exec(body)?.[1];
  // With a block, the block decides after the last attempt; without one the error goes to the adapter.
  const after = retryOn && /\bdo\b|\{\s*\|/.test(retryOn) ? 'then calls its block' : 'then hands the error to the queue adapter, which may retry again (Sidekiq does, by default)';
  const attempts = retryOn ? /\battempts:\s*(\d+|:unlimited)/.exec(retryOn)?.[1] : undefined;
  const count = attempts === ':unlimited' ? 'without limit' : attempts ? `${attempts} attempts` : '5 attempts, the default';
  const retried = retryOn
    ? `\`retry_on${retryOn.startsWith('(') ? '' : ' '}${retryOn.trim()}\` re-runs \`perform\` from the start after those errors (${count}), ${after}`
    : 'no `retry_on`: an error is retried only if the queue adapter does so (Sidekiq does, by default)';
  return `${retried}; what a worker crash does depends on the queue adapter (Sidekiq pushes a job still running at shutdown back to Redis, which runs it again) — side effects before the failure repeat`;
}

/**
 * Job and consumer classes of one Ruby file.
 * @example scanRubyJobs('app/jobs/charge_job.rb', 'class ChargeJob < ApplicationJob\n  queue_as :billing\n  def perform(id); end\nend')[0] // { handler: 'ChargeJob', channel: 'billing', ... }
 */
export function scanRubyJobs(relPath: string, text: string): ConsumerFinding[] {
  const lines = text.split('\n');
  const out: ConsumerFinding[] = [];
  const push = (broker: Broker, line: number, evidence: string, redelivery?: string): void => {
    const owner = classAbove(lines, line);
    if (!owner) return;
    const body = classBody(lines, owner.line);
    const queue = /queue_as\s+:?["']?(\w+)|sidekiq_options[^\n]*\bqueue:\s*:?["']?([\w-]+)|from_queue\s+["']([^"']+)/.exec(body);
    const channel = queue?.[1] ?? queue?.[2] ?? queue?.[3];
    out.push({ broker, ...(channel ? { channel } : {}), location: formatLocation(relPath, owner.line), evidence, handler: owner.name, ...(redelivery ? { redelivery } : {}) });
  };
  for (const { line } of matchesWithLines(text, /^\s*include\s+Sidekiq::(?:Job|Worker)\b/gm)) {
    const owner = classAbove(lines, line);
    push('other', line, 'Sidekiq job', owner ? sidekiqRedelivery(classBody(lines, owner.line), formatLocation(relPath, owner.line)) : undefined);
  }
  // The abstract base (`class ApplicationJob < ActiveJob::Base`) is no job of its own.
  for (const { match, line } of matchesWithLines(text, /^\s*class\s+([\w:]+)\s*<\s*(ApplicationJob|ActiveJob::Base)\b/gm)) {
    if (match[1] === 'ApplicationJob') continue;
    push('other', line + 1, 'ActiveJob', activeJobRedelivery(classBody(lines, line)));
  }
  for (const { line } of matchesWithLines(text, /^\s*include\s+Sneakers::Worker\b/gm)) push('rabbitmq', line, 'Sneakers worker');
  for (const { line } of matchesWithLines(text, /^\s*class\s+\w+\s*<\s*(?:Karafka::BaseConsumer|ApplicationConsumer)\b/gm)) push('kafka', line + 1, 'Karafka consumer');
  return out;
}

/**
 * `Sidekiq::Cron::Job.create(name: 'x', cron: '0 * * * *', class: 'SyncJob')` written in Ruby.
 * @example scanRubySchedules('config/initializers/cron.rb', "Sidekiq::Cron::Job.create(name: 'sync', cron: '0 * * * *', class: 'SyncJob')")[0].handler // 'SyncJob'
 */
export function scanRubySchedules(relPath: string, text: string): SchedulerFinding[] {
  return matchesWithLines(text, /Sidekiq::Cron::Job\.(?:create|new)\(([^)]*)\)/g).map(({ match, line }) => {
    const args = match[1] ?? '';
    const cron = /\bcron:\s*["']([^"']+)/.exec(args)?.[1];
    const job = /\bclass:\s*["']?([\w:]+)/.exec(args)?.[1];
    return { mechanism: 'sidekiq-cron', ...(cron ? { schedule: `cron "${cron}"` } : {}), location: formatLocation(relPath, line), ...(job ? { handler: job } : {}) };
  });
}
