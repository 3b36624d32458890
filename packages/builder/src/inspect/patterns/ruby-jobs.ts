/**
 * Ruby background jobs as consumers: Sidekiq (`include Sidekiq::Job` / `Sidekiq::Worker`, its
 * `sidekiq_options`), ActiveJob (`< ApplicationJob`, `queue_as`, `retry_on`), Sneakers and Karafka
 * consumers; and `Sidekiq::Cron::Job.create(…)` schedules written in Ruby. Each names its class.
 */
import { formatLocation } from '../location.js';
import type { Broker, ConsumerFinding, SchedulerFinding } from '../types.js';
import { matchesWithLines } from './line-patterns.js';

/** The class a line sits in: the nearest `class X` above it. */
function classAbove(lines: readonly string[], line: number): { name: string; line: number } | undefined {
  for (let i = line - 1; i >= 0; i -= 1) {
    const m = /^\s*class\s+([\w:]+)/.exec(lines[i] ?? '');
    if (m) return { name: m[1] ?? '', line: i + 1 };
  }
  return undefined;
}

/** The text of a class from its `class` line to the next top-level class (enough for option lookups). */
function classBody(lines: readonly string[], start: number): string {
  const end = lines.findIndex((l, i) => i >= start && /^\s*class\s/.test(l));
  return lines.slice(start - 1, end < 0 ? undefined : end).join('\n');
}

function sidekiqRedelivery(body: string, location: string): string {
  const retry = /sidekiq_options[^\n]*\bretry:\s*(false|0|\d+)/.exec(body)?.[1];
  const retries = retry === 'false' || retry === '0'
    ? `retries are off (\`retry: ${retry}\`, ${location}), so an error loses the job`
    : `a job that raises is retried${retry ? ` up to ${retry} times (\`retry: ${retry}\`)` : ' (25 times over about three weeks by default)'}, re-running \`perform\` from the start`;
  return `${retries}; a job still running when Sidekiq shuts down is pushed back to Redis and runs again, and one killed outright is lost unless reliable fetch (Sidekiq Pro) re-runs it — side effects before the failure repeat`;
}

function activeJobRedelivery(body: string): string {
  const retryOn = /^\s*retry_on\s+([^\n]+)/m.exec(body)?.[1];
  const retried = retryOn ? `\`retry_on ${retryOn.trim()}\` re-runs \`perform\` from the start after those errors` : 'no `retry_on`: an error is retried only if the queue adapter does so (Sidekiq does, by default)';
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
