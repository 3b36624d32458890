/**
 * Celery tasks (`@shared_task`, `@app.task`, `@celery.task`, with options such as `bind=True`,
 * `acks_late=True`, `queue=`) and the settings that decide what a worker crash does to them
 * (`task_acks_late`, `CELERY_TASK_ACKS_LATE`). A task's own option is read here; the global
 * setting may sit in another file, so `finishCeleryTasks` applies it once every file is read.
 */
import { formatLocation } from '../location.js';
import type { ConsumerFinding } from '../types.js';
import { argsOf, balanced, keyword, oneLine, splitArgs, stringLiteral } from './python-args.js';
import { callText, matchesWithLines, nextLineMatching } from './line-patterns.js';

/** A name under which the acks_late setting is passed between files. */
export const ACKS_LATE_SETTING = 'celery.task_acks_late';
/** Likewise for `task_reject_on_worker_lost`, which decides what a killed pool process does to a late-acked task. */
export const REJECT_ON_LOST_SETTING = 'celery.task_reject_on_worker_lost';

const DEFAULT_WHERE = 'Celery’s default — no `task_acks_late` setting found';

const DECORATOR = /^[ \t]*@((?:[\w]+\.)*(?:shared_task|task))\b/gm;

/**
 * What `acks_late` on means for a task, with where it was set. Celery's configuration reference:
 * even with late acks, the message of a task whose pool process is killed (OOM, SIGKILL) is
 * acknowledged unless `task_reject_on_worker_lost` is set; Redis's visibility timeout is 1 hour.
 */
const KILLED_ACKED = 'but a pool process killed mid-task (out of memory, SIGKILL) has its message acknowledged anyway — the task is marked failed, not repeated — unless `task_reject_on_worker_lost` is set';

function acksLateOn(where: string, rejectOnLost?: string): string {
  const killed = rejectOnLost ? `a pool process killed mid-task requeues it too (\`reject_on_worker_lost\` ${rejectOnLost})` : KILLED_ACKED;
  return `acks_late on (${where}): the message is acknowledged only after the task returns, so a worker that dies mid-task (crash, deploy, lost broker connection) gets it redelivered and the task runs again — it needs deduplication; ${killed} (a Redis or SQS broker also redelivers a task that outlives the visibility timeout, 1 hour by default on Redis, while the first run may still be going)`;
}

/** What `acks_late` off means; the retries that still re-run the task are named when seen. */
function acksLateOff(where: string, retries: string | undefined): string {
  const again = retries ? `; ${retries}, and a producer that sends twice still runs it twice` : '; a producer that sends twice (or `self.retry`) still runs it twice';
  return `acks_late off (${where}): the message is acknowledged before the task runs, so a worker crash loses the task rather than repeating it${again}`;
}

/** `max_retries` alone retries nothing: it caps `self.retry()` (Celery's Task.max_retries note). */
function retriesOf(args: readonly string[]): string | undefined {
  if (keyword(args, 'autoretry_for')) return '`autoretry_for` re-runs it after those errors';
  const max = keyword(args, 'max_retries');
  return max && max !== '0' ? `\`max_retries=${max}\` caps the task’s own \`self.retry\` calls (it retries nothing by itself)` : undefined;
}

/**
 * Celery tasks of one file as consumers: the handler is the decorated function, the channel its
 * `queue=` when written, and the redelivery assessment when the task sets `acks_late` itself.
 * @example scanCeleryTasks('billing/tasks.py', '@shared_task(acks_late=True)\ndef charge(id):\n    ...')[0].handler // 'charge'
 */
export function scanCeleryTasks(relPath: string, text: string): ConsumerFinding[] {
  // `@app.task` is Celery only where the file speaks of Celery (Huey and others spell it alike).
  const celery = /celery|shared_task/i.test(text);
  const out: ConsumerFinding[] = [];
  for (const { match, line, index } of matchesWithLines(text, DECORATOR)) {
    const decorator = match[1] ?? '';
    if (!celery && decorator !== 'shared_task') continue;
    if (/^(pytest|mock|patch)\b/.test(decorator) || /\.(periodic_task|db_task)$/.test(decorator)) continue;
    const after = index + match[0].length;
    const hasArgs = text[after] === '(';
    const call = hasArgs ? callText(text, after) : '';
    const args = hasArgs ? argsOf(call) : [];
    const endLine = line + call.split('\n').length - 1;
    const def = nextLineMatching(text, endLine + 1, /^[ \t]*(?:async\s+)?def (\w+)\(/, 8);
    if (!def) continue;
    const queue = stringLiteral(keyword(args, 'queue'));
    const acks = keyword(args, 'acks_late');
    const location = formatLocation(relPath, line);
    // Without its own option the task follows the project setting, applied in finishCeleryTasks.
    let redelivery = acksLateOff(DEFAULT_WHERE, retriesOf(args));
    const rejects = keyword(args, 'reject_on_worker_lost') === 'True' ? `on the task, ${location}` : undefined;
    if (acks === 'True') redelivery = acksLateOn(`\`acks_late=True\` on the task, ${location}`, rejects);
    else if (acks === 'False') redelivery = acksLateOff(`\`acks_late=False\` on the task, ${location}`, retriesOf(args));
    out.push({
      broker: 'other',
      ...(queue ? { channel: queue } : {}),
      location,
      evidence: oneLine(`@${decorator}${call}`, 100),
      handler: def.match[1] ?? '',
      redelivery,
    });
  }
  return out;
}

/**
 * The project-wide acks_late setting in every spelling: Django settings with the CELERY namespace
 * (`CELERY_TASK_ACKS_LATE`, old `CELERY_ACKS_LATE`), a celeryconfig module (`task_acks_late`),
 * `app.conf.task_acks_late = …` and `app.conf.update(task_acks_late=…)`.
 * @example celerySettings('proj/settings.py', 'CELERY_TASK_ACKS_LATE = True') // [{ name: 'celery.task_acks_late', value: 'True', ... }]
 */
export function celerySettings(relPath: string, text: string): Array<{ name: string; value: string; location: string }> {
  const out: Array<{ name: string; value: string; location: string }> = [];
  // A task's own `acks_late=` is read with the task; only module-level or conf settings count here.
  for (const { match, line } of matchesWithLines(text, /\b(?:CELERY_TASK_ACKS_LATE|CELERY_ACKS_LATE|task_acks_late)\s*(?::\s*\w+\s*)?=\s*([^\n#]+)/g)) {
    // `update(task_acks_late=True, beat_schedule=…)`: the value ends at the next top-level comma.
    const value = balanced(splitArgs(match[1] ?? '')[0] ?? '');
    out.push({ name: ACKS_LATE_SETTING, value, location: formatLocation(relPath, line) });
  }
  for (const { match, line } of matchesWithLines(text, /\b(?:CELERY_TASK_REJECT_ON_WORKER_LOST|task_reject_on_worker_lost)\s*(?::\s*\w+\s*)?=\s*([^\n#]+)/g)) {
    out.push({ name: REJECT_ON_LOST_SETTING, value: balanced(splitArgs(match[1] ?? '')[0] ?? ''), location: formatLocation(relPath, line) });
  }
  return out;
}

/**
 * Applies the project's acks_late setting to every Celery task that does not set its own (those
 * still saying Celery's default). Other consumers pass through unchanged.
 * @example finishCeleryTasks(consumers, [{ name: ACKS_LATE_SETTING, value: 'True', location: 'proj/settings.py:40' }])
 */
export function finishCeleryTasks(consumers: readonly ConsumerFinding[], settings: ReadonlyArray<{ name: string; value: string; location: string }>): ConsumerFinding[] {
  const setting = settings.find((s) => s.name === ACKS_LATE_SETTING);
  const reject = settings.find((s) => s.name === REJECT_ON_LOST_SETTING && /^True$/i.test(s.value));
  const rejectWhere = reject ? `in the settings, ${reject.location}` : undefined;
  // A task that sets acks_late itself still follows the project's reject_on_worker_lost.
  const withReject = (c: ConsumerFinding): ConsumerFinding =>
    rejectWhere && c.redelivery?.includes(KILLED_ACKED) ? { ...c, redelivery: c.redelivery.replace(KILLED_ACKED, `a pool process killed mid-task requeues it too (\`reject_on_worker_lost\` ${rejectWhere})`) } : c;
  if (!setting) return consumers.map(withReject);
  return consumers.map((consumer) => {
    if (!consumer.redelivery?.includes(DEFAULT_WHERE)) return withReject(consumer);
    let redelivery: string;
    if (/^True$/i.test(setting.value)) redelivery = acksLateOn(`\`${setting.value}\` in the settings, ${setting.location}`, rejectWhere);
    else if (/^False$/i.test(setting.value)) redelivery = consumer.redelivery.replace(DEFAULT_WHERE, `set to False in the settings, ${setting.location}`);
    else redelivery = `acks_late comes from \`${oneLine(setting.value, 60)}\` (${setting.location}), decided at deploy time: if it is true, a worker that dies mid-task has the task redelivered and run again (it needs deduplication), though a killed pool process only with \`task_reject_on_worker_lost\`; if false, a crash loses it`;
    return { ...consumer, redelivery };
  });
}
