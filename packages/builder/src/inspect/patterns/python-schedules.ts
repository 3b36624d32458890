/**
 * Python schedules in their real spellings. Celery beat: `CELERY_BEAT_SCHEDULE = {…}` (Django
 * settings), `app.conf.beat_schedule = {…}`, `app.conf.update(beat_schedule={…})`, a celeryconfig
 * `beat_schedule`, entries built by a function, `sender.add_periodic_task(…)`, and
 * django-celery-beat (schedules kept in the database). APScheduler: `add_job` with a trigger name
 * or a trigger object, `@scheduled_job`, v4 `add_schedule`, Flask-APScheduler `JOBS`. The
 * `schedule` library. One finding per entry, named after the task or function it runs.
 */
import { formatLocation, lineAtOffset } from '../location.js';
import type { SchedulerFinding } from '../types.js';
import { argsOf, balanced, dictValue, enclosingBraces, keyword, oneLine, positional, stringLiteral } from './python-args.js';
import { callText, matchesWithLines, nextLineMatching } from './line-patterns.js';

const BEAT = 'celery beat';
const DB_BEAT = 'django-celery-beat';
const CRON_LITERAL = /["']((?:[\d*/,-]+|\w{3})(?:\s+(?:[\d*/,-]+|\w{3}(?:-\w{3})?)){4})["']/;

/** Celery reads a bare number as seconds. */
function beatSchedule(expr: string): string {
  return /^\d+(\.\d+)?$/.test(expr.trim()) ? `every ${expr.trim()} s` : oneLine(expr);
}

/** `billing.tasks.charge` → shown as written; `charge.s(1)` / `signature("a.b")` → the task. */
function signatureTask(expr: string | undefined): string | undefined {
  if (!expr) return undefined;
  return /^([\w.]+)\.(?:s|si|signature)\(/.exec(expr.trim())?.[1] ?? stringLiteral(/^(?:signature|Signature)\(\s*([^,)]+)/.exec(expr.trim())?.[1]);
}

/** Beat entries: every dict with a literal `"task"` in a file that speaks of beat or periodic tasks. */
function beatEntries(relPath: string, text: string): SchedulerFinding[] {
  const out: SchedulerFinding[] = [];
  for (const { match, line, index } of matchesWithLines(text, /["']task["']\s*:\s*["']([\w.]+)["']/g)) {
    const braces = enclosingBraces(text, index);
    if (!braces) continue;
    const dict = text.slice(braces.open, braces.close + 1);
    const written = dictValue(dict, 'schedule');
    const cron = written ? undefined : CRON_LITERAL.exec(dict)?.[1];
    // A schedule read from the environment with a literal default: the default is what runs unless overridden.
    const note = written ? undefined : cron ? 'the schedule is computed at run time (the default in the code is shown; the environment may override it)' : 'no literal schedule in the entry: it is computed at run time';
    out.push({
      mechanism: BEAT,
      ...(written ? { schedule: beatSchedule(written) } : cron ? { schedule: `cron "${cron}"` } : {}),
      location: formatLocation(relPath, line),
      handler: match[1] ?? '',
      ...(note ? { note } : {}),
    });
  }
  return out;
}

/** `CELERY_BEAT_SCHEDULE = build_schedule()`: the entries are not literal here; kept only when none is found elsewhere. */
function computedBeat(relPath: string, text: string): SchedulerFinding[] {
  return matchesWithLines(text, /\b(?:CELERY_BEAT_SCHEDULE|CELERYBEAT_SCHEDULE|beat_schedule)\s*(?::\s*[\w[\], ]+)?=\s*(?![{\s]|dict\()([^\n#]+)/g).map(({ match, line }) => ({
    mechanism: BEAT,
    location: formatLocation(relPath, line),
    note: `computed at run time by \`${oneLine(balanced(match[1] ?? ''), 60)}\`: its entries are not literal in the code — list them by hand`,
  }));
}

function periodicTasks(relPath: string, text: string): SchedulerFinding[] {
  return matchesWithLines(text, /\.add_periodic_task\(/g).map(({ line, index }) => {
    const args = argsOf(callText(text, index));
    const [first, second] = positional(args);
    const schedule = keyword(args, 'schedule') ?? first;
    const task = signatureTask(keyword(args, 'sig') ?? second);
    return { mechanism: BEAT, ...(schedule ? { schedule: beatSchedule(schedule) } : {}), location: formatLocation(relPath, line), ...(task ? { handler: task } : {}) };
  });
}

function databaseBeat(relPath: string, text: string): SchedulerFinding[] {
  const out: SchedulerFinding[] = [];
  const configured = /django_celery_beat\.schedulers:DatabaseScheduler|["']django_celery_beat["']/.exec(text);
  if (configured) {
    out.push({
      mechanism: DB_BEAT,
      location: formatLocation(relPath, lineAtOffset(text, configured.index)),
      note: 'schedules are rows in the database (django_celery_beat PeriodicTask), edited in the admin, not in the code: list them (`PeriodicTask.objects.values("name", "task", "crontab", "interval")`) — each triggers one of the Celery tasks above',
    });
  }
  for (const { line, index } of matchesWithLines(text, /\bPeriodicTask\.objects\.(?:create|get_or_create|update_or_create)\(/g)) {
    const args = argsOf(callText(text, index));
    const task = stringLiteral(keyword(args, 'task'));
    const schedule = keyword(args, 'crontab') ?? keyword(args, 'interval') ?? keyword(args, 'clocked');
    out.push({
      mechanism: DB_BEAT, ...(schedule ? { schedule: oneLine(schedule) } : {}), location: formatLocation(relPath, line), ...(task ? { handler: task } : {}),
      note: 'a database row created by this code; its schedule can be changed in the admin afterwards',
    });
  }
  return out;
}

const NOT_TRIGGER_FIELDS = /^(id|name|args|kwargs|replace_existing|misfire_grace_time|coalesce|max_instances|jobstore|executor|next_run_time|func|trigger|conflict_policy|paused)$/;

/** `"cron" hour=3, minute=0` from a trigger name and the keyword fields after it; a trigger object as written. */
function apschedulerSchedule(trigger: string | undefined, args: readonly string[]): string | undefined {
  if (!trigger) return undefined;
  const name = stringLiteral(trigger);
  if (!name) return oneLine(trigger);
  const fields = args.filter((a) => /^\w+\s*=/.test(a) && !NOT_TRIGGER_FIELDS.test(a.slice(0, a.indexOf('=')).trim())).map((a) => a.replace(/\s*=\s*/, '='));
  return [name, fields.join(', ')].filter(Boolean).join(' ');
}

function lastName(expr: string | undefined): string | undefined {
  const plain = stringLiteral(expr) ?? expr;
  return plain ? /([A-Za-z_]\w*)\s*$/.exec(plain.replace(/\(.*$/, ''))?.[1] : undefined;
}

function apscheduler(relPath: string, text: string): SchedulerFinding[] {
  if (!/apscheduler|\bscheduler\w*\.add_job\(|scheduled_job\(/i.test(text)) return [];
  const out: SchedulerFinding[] = [];
  for (const { line, index } of matchesWithLines(text, /\.(?:add_job|add_schedule)\(/g)) {
    const args = argsOf(callText(text, index));
    const [func, trigger] = positional(args);
    const handler = lastName(keyword(args, 'func') ?? func);
    const schedule = apschedulerSchedule(keyword(args, 'trigger') ?? trigger, args);
    out.push({ mechanism: 'apscheduler', ...(schedule ? { schedule } : {}), location: formatLocation(relPath, line), ...(handler ? { handler } : {}) });
  }
  for (const { line, index } of matchesWithLines(text, /^[ \t]*@\w+\.scheduled_job\(/gm)) {
    const call = callText(text, index);
    const args = argsOf(call);
    const def = nextLineMatching(text, line + call.split('\n').length, /^[ \t]*(?:async\s+)?def (\w+)\(/, 6);
    const schedule = apschedulerSchedule(keyword(args, 'trigger') ?? positional(args)[0], args);
    out.push({ mechanism: 'apscheduler', ...(schedule ? { schedule } : {}), location: formatLocation(relPath, line), ...(def ? { handler: def.match[1] } : {}) });
  }
  // Flask-APScheduler: `JOBS = [{"id": "x", "func": "jobs:sync", "trigger": "interval", "seconds": 30}]`.
  for (const { match, line, index } of matchesWithLines(text, /["']func["']\s*:\s*["']([\w.:]+)["']/g)) {
    const braces = enclosingBraces(text, index);
    const trigger = braces ? dictValue(text.slice(braces.open, braces.close + 1), 'trigger') : undefined;
    if (!trigger) continue;
    const dict = text.slice(braces?.open ?? 0, (braces?.close ?? 0) + 1).replace(/^\{|\}$/g, '');
    const fields = argsOf(`(${dict.replace(/["'](\w+)["']\s*:\s*/g, '$1=')})`);
    out.push({ mechanism: 'apscheduler', schedule: apschedulerSchedule(trigger, fields) ?? trigger, location: formatLocation(relPath, line), handler: lastName((match[1] ?? '').replace(':', '.')) ?? '' });
  }
  return out;
}

function scheduleLibrary(relPath: string, text: string): SchedulerFinding[] {
  if (!/^\s*import schedule\b|^\s*from schedule import/m.test(text)) return [];
  return matchesWithLines(text, /\bschedule\.every\(([^)]*)\)((?:\.\w+(?:\([^)]*\))?)*?)\.do\(\s*([\w.]+)/g).map(({ match, line }) => ({
    mechanism: 'schedule', schedule: `every(${match[1] ?? ''})${match[2] ?? ''}`, location: formatLocation(relPath, line), handler: lastName(match[3]) ?? '',
  }));
}

/**
 * Every schedule one Python file declares.
 * @example scanPythonSchedules('proj/settings.py', 'CELERY_BEAT_SCHEDULE = {"nightly": {"task": "billing.tasks.charge", "schedule": crontab(hour=2)}}')[0].handler // 'billing.tasks.charge'
 */
export function scanPythonSchedules(relPath: string, text: string): SchedulerFinding[] {
  const beat = /beat|periodic/i.test(text);
  return [
    ...(beat ? [...beatEntries(relPath, text), ...computedBeat(relPath, text), ...periodicTasks(relPath, text)] : []),
    ...databaseBeat(relPath, text),
    ...apscheduler(relPath, text),
    ...scheduleLibrary(relPath, text),
  ];
}

/**
 * Project-wide: a computed beat schedule is dropped when its entries were found in another file,
 * and the database-scheduler notice is kept once.
 * @example finishPythonSchedules(schedulers).filter((s) => s.mechanism === 'celery beat')
 */
export function finishPythonSchedules(schedulers: readonly SchedulerFinding[]): SchedulerFinding[] {
  const literalBeat = schedulers.some((s) => s.mechanism === BEAT && s.handler);
  let dbNotice = false;
  return schedulers.filter((s) => {
    if (s.mechanism === BEAT && !s.handler && s.note?.startsWith('computed at run time')) return !literalBeat;
    if (s.mechanism === DB_BEAT && !s.handler) {
      if (dbNotice) return false;
      dbNotice = true;
    }
    return true;
  });
}
