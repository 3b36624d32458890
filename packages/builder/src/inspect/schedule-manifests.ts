/**
 * Schedules declared in YAML rather than code: Kubernetes `kind: CronJob` manifests (schedule,
 * concurrencyPolicy and the container command → the job it runs), sidekiq-cron `schedule.yml`,
 * sidekiq-scheduler (`:scheduler:` in sidekiq.yml) and Solid Queue `recurring.yml`.
 */
import { isMap, isScalar, isSeq, LineCounter, parseAllDocuments, type Node, type YAMLMap } from 'yaml';
import { formatLocation } from './location.js';
import type { SchedulerFinding } from './types.js';

/**
 * The Kubernetes CronJob page: a CronJob creates a Job "about" once per schedule time — two or none
 * are possible, so jobs should be idempotent; Forbid skips a slot while the previous Job runs (a
 * missed slot may still start late, within startingDeadlineSeconds); Replace replaces the running
 * Job with a new one.
 */
const CRONJOB_NOTE = {
  Allow: 'concurrencyPolicy Allow (the default): a run that outlasts its interval overlaps the next, and Kubernetes may start two Jobs for one slot (a CronJob runs “about once” per slot)',
  Forbid: 'concurrencyPolicy Forbid: no overlap — a slot that comes while the previous Job runs is skipped or started late — but Kubernetes may still start two Jobs for one slot (a CronJob runs “about once” per slot)',
  Replace: 'concurrencyPolicy Replace: a run still going when the next slot comes is replaced — stopped mid-way, with its side effects half done — and two Jobs for one slot remain possible',
} as const;

/** The Job page: a failed Pod is created again up to `backoffLimit` times (6 by default), and a Pod may run twice even with restartPolicy Never. */
function podRetries(backoffLimit: string | undefined): string {
  const limit = backoffLimit ?? '6';
  return limit === '0'
    ? 'backoffLimit 0: a failed Pod is not retried'
    : `a failed Pod is run again from the start, up to ${limit} times (${backoffLimit ? 'backoffLimit' : 'the Job’s default backoffLimit'})`;
}

function get(node: unknown, ...path: string[]): unknown {
  let current = node;
  for (const key of path) {
    if (!isMap(current)) return undefined;
    current = current.get(key, true);
  }
  return current;
}

function text(node: unknown): string | undefined {
  if (isScalar(node) && node.value !== null && node.value !== undefined) return String(node.value);
  if (isSeq(node)) return node.items.map((item) => text(item) ?? '').join(' ');
  return undefined;
}

function lineOf(node: unknown, lines: LineCounter): number {
  const range = (node as Node | undefined)?.range;
  return range ? lines.linePos(range[0]).line : 1;
}

/** The job a container command runs: `manage.py charge_subscriptions`, `rake billing:charge`, else the script or the CronJob's name. */
function jobOfCommand(command: string, fallback: string): string {
  const named = /manage\.py\s+([\w-]+)|\brake\s+([\w:-]+)|rails\s+runner\s+["']?([\w:.]+)|celery\s.*?\bcall\s+([\w.]+)|\bnpm\s+run\s+([\w:-]+)/.exec(command);
  const found = named?.slice(1).find(Boolean);
  if (found) return found;
  const script = /([\w-]+)\.(?:py|js|ts|rb|sh)\b/.exec(command)?.[1];
  return script ?? fallback;
}

function cronJob(doc: YAMLMap, relPath: string, lines: LineCounter): SchedulerFinding | undefined {
  const spec = get(doc, 'spec');
  const schedule = text(get(spec, 'schedule'));
  const name = text(get(doc, 'metadata', 'name')) ?? 'cronjob';
  const containers = get(spec, 'jobTemplate', 'spec', 'template', 'spec', 'containers');
  const first = isSeq(containers) ? containers.items[0] : undefined;
  const command = [text(get(first, 'command')), text(get(first, 'args'))].filter(Boolean).join(' ');
  const policy = (text(get(spec, 'concurrencyPolicy')) ?? 'Allow') as keyof typeof CRONJOB_NOTE;
  const backoffLimit = text(get(spec, 'jobTemplate', 'spec', 'backoffLimit'));
  const note = [command ? `runs \`${command.length > 100 ? `${command.slice(0, 99)}…` : command}\`` : 'the container’s own entrypoint', CRONJOB_NOTE[policy] ?? CRONJOB_NOTE.Allow, podRetries(backoffLimit)].join('; ');
  return {
    mechanism: 'kubernetes CronJob', ...(schedule ? { schedule: `cron "${schedule}"` } : {}),
    location: formatLocation(relPath, lineOf(get(doc, 'kind'), lines)), handler: jobOfCommand(command, name), note,
  };
}

/** Entries that name a job class and a schedule: `name: { cron|every|schedule: …, class: SyncJob }`. */
function jobEntries(node: unknown, relPath: string, lines: LineCounter, mechanism: string, out: SchedulerFinding[]): void {
  if (!isMap(node)) return;
  for (const pair of node.items) {
    const value = pair.value;
    const job = text(get(value, 'class')) ?? text(get(value, ':class'));
    const when = ['cron', 'every', 'schedule', 'at', 'interval'].map((k) => [k, text(get(value, k)) ?? text(get(value, `:${k}`))] as const).find(([, v]) => v);
    if (job && when) {
      out.push({ mechanism, schedule: when[0] === 'cron' ? `cron "${when[1] ?? ''}"` : `${when[0]} ${when[1] ?? ''}`, location: formatLocation(relPath, lineOf(pair.key, lines)), handler: job });
    } else {
      jobEntries(value, relPath, lines, mechanism, out);
    }
  }
}

function templatedCronJobs(relPath: string, source: string): SchedulerFinding[] {
  const lines = source.split('\n');
  const starts = lines.flatMap((l, i) => (/^kind:\s*CronJob\b/.test(l) ? [i] : []));
  return starts.map((start) => {
    const end = lines.findIndex((l, i) => i > start && /^---/.test(l));
    const doc = lines.slice(start, end < 0 ? undefined : end).join('\n');
    const schedule = /^\s+schedule:\s*(.+)$/m.exec(doc)?.[1]?.trim();
    const name = /^\s+name:\s*([\w.-]+)\s*$/m.exec(doc)?.[1];
    return {
      mechanism: 'kubernetes CronJob', ...(schedule ? { schedule } : {}), location: formatLocation(relPath, start + 1), ...(name ? { handler: name } : {}),
      note: 'a Helm template: the schedule, command and concurrency policy come from the chart’s values — check them there',
    };
  });
}

/**
 * Schedules in one YAML file; nothing for other YAML (CI workflows, compose files).
 * @example scanScheduleManifest('k8s/charge.yaml', 'kind: CronJob\nmetadata: {name: charge}\nspec:\n  schedule: "0 2 * * *"\n')[0].schedule // 'cron "0 2 * * *"'
 */
export function scanScheduleManifest(relPath: string, source: string): SchedulerFinding[] {
  const cronJobs = /^kind:\s*CronJob\b/m.test(source);
  const jobs = /^\s*:?class:\s*\S/m.test(source) && /(^|\/)config\/|schedule|recurring|sidekiq/i.test(relPath);
  if ((!cronJobs && !jobs) || relPath.startsWith('.github/')) return [];
  // A Helm template is no YAML until rendered: its CronJobs are reported as written, values unresolved.
  if (cronJobs && /\{\{/.test(source)) return templatedCronJobs(relPath, source);
  const lines = new LineCounter();
  let docs;
  try {
    docs = parseAllDocuments(source, { lineCounter: lines });
  } catch {
    return [];
  }
  const out: SchedulerFinding[] = [];
  // Helm templates (`{{ … }}`) may not parse; their documents are skipped rather than guessed at.
  for (const doc of Array.isArray(docs) ? docs : []) {
    if (doc.errors.length > 0 || !isMap(doc.contents)) continue;
    if (text(get(doc.contents, 'kind')) === 'CronJob') {
      const found = cronJob(doc.contents, relPath, lines);
      if (found) out.push(found);
    } else if (jobs) {
      const mechanism = /recurring/.test(relPath) ? 'solid_queue recurring' : /:?scheduler:?/.test(source) && /sidekiq/.test(relPath) ? 'sidekiq-scheduler' : 'sidekiq-cron';
      jobEntries(doc.contents, relPath, lines, mechanism, out);
    }
  }
  return out;
}
