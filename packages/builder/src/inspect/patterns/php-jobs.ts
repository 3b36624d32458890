/**
 * Laravel queued work and schedules: classes that implement `ShouldQueue` (jobs, queued listeners,
 * mail and notifications) as consumers, their retries read from `$tries`, `$backoff`,
 * `retryUntil()` and `$maxExceptions`; schedules written as `$schedule->command(…)->daily()`
 * (Console Kernel, Laravel ≤ 10) or `Schedule::command(…)->daily()` (routes/console.php, 11+).
 * Text arrives with comments blanked.
 */
import { formatLocation, lineAtOffset } from '../location.js';
import type { ConsumerFinding, SchedulerFinding } from '../types.js';
import { callChain, className, splitArguments, stringValue } from './php-source.js';

/**
 * What a failure or a crash does to a queued job. The worker's `--tries` (1 by default) applies
 * unless the class sets `$tries` or `retryUntil()`; a job still running when the connection's
 * `retry_after` (90 s in the default config/queue.php) passes, or whose worker dies, is made
 * available again and runs a second time.
 */
function queuedRedelivery(body: string, lineOf: (offset: number) => string): string {
  const triesAt = /\$tries\s*=\s*(\d+)/.exec(body);
  const tries = triesAt?.[1];
  const untilAt = /function\s+retryUntil\s*\(/.exec(body);
  const location = lineOf(untilAt?.index ?? triesAt?.index ?? 0);
  const backoff = /\$backoff\s*=\s*([^;]+);/.exec(body)?.[1]?.trim();
  const until = untilAt !== null;
  const retried = until
    ? `\`retryUntil()\` (${location}) keeps retrying a job that throws until that time, re-running \`handle()\` from the start`
    : tries
      ? `a job that throws is attempted up to ${tries} times (\`$tries = ${tries}\`, ${location}), re-running \`handle()\` from the start`
      : 'no `$tries`: the worker\'s `--tries` decides how often a job that throws runs again (1 attempt, no retry, by default)';
  const delay = backoff ? ` after \`$backoff = ${backoff}\` seconds` : '';
  return `${retried}${delay}; a job still running when the queue connection's \`retry_after\` (90 s by default) passes, or whose worker dies, is released and runs again — side effects before the failure repeat`;
}

/**
 * Classes of one PHP file that implement `ShouldQueue`, each a consumer named by its class.
 * @example laravelJobs('app/Jobs/SendReceipt.php', 'class SendReceipt implements ShouldQueue {\n  public $tries = 3;\n  public function handle() {}\n}')[0].handler // 'SendReceipt'
 */
export function laravelJobs(relPath: string, code: string): ConsumerFinding[] {
  const out: ConsumerFinding[] = [];
  for (const match of code.matchAll(/^\s*(?:final\s+|abstract\s+)*class\s+(\w+)[^{]*?\bimplements\s+[^{]*\bShouldQueue\b[^{]*\{/gm)) {
    if (/\babstract\s+class/.test(match[0])) continue;
    const start = (match.index ?? 0) + match[0].search(/class\s/);
    const next = code.slice(start + 6).search(/^\s*(?:final\s+|abstract\s+)*class\s+\w+/m);
    const body = code.slice(start, next < 0 ? undefined : start + 6 + next);
    const location = formatLocation(relPath, lineAtOffset(code, start));
    const queue = /\$queue\s*=\s*["']([^"']+)["']|->onQueue\(\s*["']([^"']+)["']/.exec(body);
    const channel = queue?.[1] ?? queue?.[2];
    const handle = /function\s+handle\s*\(/.exec(body);
    const kind = /\bextends\s+Mailable\b/.test(match[0]) ? 'queued mail' : /\bextends\s+Notification\b/.test(match[0]) ? 'queued notification' : /(?:^|\/)Listeners\//.test(relPath) ? 'queued listener' : 'queued job';
    const evidence = `Laravel ${kind} (implements ShouldQueue)${handle ? `; handle() at ${formatLocation(relPath, lineAtOffset(code, start + handle.index))}` : ''}`;
    out.push({ broker: 'other', ...(channel ? { channel } : {}), location, evidence, handler: match[1] ?? '', redelivery: queuedRedelivery(body, (offset) => formatLocation(relPath, lineAtOffset(code, start + offset))) });
  }
  return out;
}

/** Laravel's frequency methods (`daily()`, `everyFiveMinutes()`, `cron('0 * * * *')`, `twiceDailyAt(…)`), not options such as `withoutOverlapping()`. */
const FREQUENCY = /^(?:cron|every\w+|hourly\w*|daily\w*|twice\w+|weekly\w*|weekdays|weekends|mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|monthly\w*|lastDayOfMonth|quarterly\w*|yearly\w*|days|at|between)$/;

/** The frequency a schedule chain sets: its first frequency call (`daily()`, `cron('0 * * * *')`). */
function frequencyOf(calls: ReturnType<typeof callChain>, args: ReadonlyArray<{ text: string }>): string | undefined {
  const chained = calls.slice(1).find((call) => FREQUENCY.test(call.name)) ?? calls[1];
  if (chained) return `${chained.name}(${chained.args.trim()})`;
  // A project's own Schedule facade may take the frequency as arguments (`Schedule::job(X::class, 'hourly')`).
  const rest = args.slice(1).map((a) => stringValue(a.text) ?? a.text);
  return rest.length > 0 ? rest.join(' ') : undefined;
}

/**
 * Scheduled commands, jobs and closures: `$schedule->command('x')->daily()` and the Laravel 11
 * facade `Schedule::job(new X)->hourly()`, each with what it runs.
 * @example laravelSchedules('routes/console.php', "Schedule::command('invoices:check')->daily();")[0] // { schedule: 'daily()', handler: 'invoices:check', … }
 */
export function laravelSchedules(relPath: string, code: string): SchedulerFinding[] {
  const out: SchedulerFinding[] = [];
  for (const match of code.matchAll(/(?:\$schedule->|\bSchedule::)(?=(?:command|job|call|exec)\s*\()/g)) {
    const calls = callChain(code, (match.index ?? 0) + match[0].length);
    const task = calls[0];
    if (!task) continue;
    const args = splitArguments(task.args);
    const first = args[0]?.text ?? '';
    const handler = task.name === 'command' || task.name === 'exec'
      ? stringValue(first) ?? className(first)
      : task.name === 'job' ? /^new\s+\\?([\w\\]+)/.exec(first)?.[1] ?? className(first) : undefined;
    const schedule = frequencyOf(calls, args);
    out.push({
      mechanism: 'laravel scheduler', ...(schedule ? { schedule } : {}), location: formatLocation(relPath, lineAtOffset(code, match.index ?? 0)),
      ...(handler ? { handler: handler.slice(handler.lastIndexOf('\\') + 1) } : {}),
    });
  }
  return out;
}
