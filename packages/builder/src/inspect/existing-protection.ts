/**
 * Finds the deduplication a repository already does, file by file, in every language it is
 * commonly written in: unique constraints on key columns (SQL migrations, Prisma, SQLAlchemy,
 * Django, JPA, TypeORM, Mongoose, Rails, GORM, Drizzle, Knex), processed-events tables, locks
 * (Redis SET NX, advisory locks, ShedLock, unique-job plugins) and read-then-check code (a lookup
 * by a key column followed by an insert). What each one is worth is judged project-wide in
 * existing-assessment.ts, once every unique constraint is known.
 */
import { formatLocation, lineAtOffset } from './location.js';
import { callText, matchesWithLines } from './patterns/line-patterns.js';

/** A unique constraint on a column that identifies an event, message or request. */
export interface UniqueColumn {
  readonly column: string;
  readonly location: string;
  readonly evidence: string;
}

/** A lookup by a key column (or on a processed-events model) followed by an insert. */
export interface ReadThenCheck {
  readonly column?: string;
  /** The processed-events model or table looked up, when the lookup is named by it rather than by a key column. */
  readonly model?: string;
  /** True when the insert is not in the looking-up function but elsewhere in the file (after the work, later). */
  readonly elsewhere?: boolean;
  readonly location: string;
  readonly evidence: string;
  readonly insertLocation: string;
  /** True when the function does other work between the lookup and the insert. */
  readonly workBeforeInsert: boolean;
  /** `get_or_create`-style: the lookup and the insert are one call. */
  readonly combined: boolean;
  /** A row lock taken around the lookup (`select_for_update`, `FOR UPDATE`). */
  readonly rowLock: boolean;
  /** `path:line` of a transaction around the function (`@Transactional`, `transaction.atomic`), when seen. */
  readonly transaction?: string;
}

export interface ProtectionScan {
  readonly uniqueColumns: UniqueColumn[];
  readonly checks: ReadThenCheck[];
  readonly tables: Array<{ readonly name: string; readonly location: string; readonly evidence: string }>;
  readonly locks: Array<{ readonly location: string; readonly evidence: string; readonly what: 'nx' | 'advisory' | 'shedlock' | 'unique-job' }>;
}

/** Columns that identify one event, message or request: what a dedup table or check is keyed on. */
export function isKeyColumn(name: string): boolean {
  const n = name.toLowerCase().replace(/[_"'`]/g, '');
  return /idempoten|dedup/.test(n) || /^\w*(event|message|delivery|webhook|request)id$/.test(n);
}

const GATE = /unique|idempot|dedup|processed|event_?id|message_?id|\bnx\b|setnx|setIfAbsent|SchedulerLock|advisory_|get_or_create|QueueOnce|sidekiq_options/i;
const TEST_PATH = /(^|\/)(tests?|spec|__tests__)\/|(^|\/)test_[^/]*\.py$|_test\.(py|go)$|\.(test|spec)\.[cm]?[jt]sx?$|Tests?\.(java|kt)$/;

const line = (text: string, index: number): number => lineAtOffset(text, index);
const short = (code: string): string => {
  const flat = code.replace(/\s+/g, ' ').trim();
  return flat.length > 110 ? `${flat.slice(0, 109)}…` : flat;
};
const namesIn = (list: string): string[] => [...list.matchAll(/["'`:]?(\w+)["'`]?/g)].map((m) => m[1] ?? '').filter(Boolean);

function uniqueColumns(relPath: string, text: string): UniqueColumn[] {
  const out: UniqueColumn[] = [];
  const add = (column: string, index: number, evidence: string): void => {
    if (isKeyColumn(column)) out.push({ column: column.replace(/["'`]/g, ''), location: formatLocation(relPath, line(text, index)), evidence: short(evidence) });
  };
  const each = (pattern: RegExp, columns: (m: RegExpMatchArray) => string[]): void => {
    for (const { match, index } of matchesWithLines(text, pattern)) for (const c of columns(match)) add(c, index, match[0]);
  };
  // SQL: a column declared UNIQUE or PRIMARY KEY, a UNIQUE (…) / PRIMARY KEY (…) table constraint, CREATE UNIQUE INDEX … (…).
  each(/^\s*"?(\w+)"?\s+[\w() ]+?\b(?:UNIQUE|PRIMARY\s+KEY)\b[^,\n]*/gim, (m) => [m[1] ?? '']);
  each(/\b(?:UNIQUE|PRIMARY\s+KEY)\s*(?:KEY|INDEX)?\s*(?:"?\w+"?\s*)?\(([^)]*)\)/gi, (m) => namesIn(m[1] ?? ''));
  each(/CREATE\s+UNIQUE\s+INDEX[^(]*\(([^)]*)\)/gi, (m) => namesIn(m[1] ?? ''));
  // Prisma.
  each(/^\s*(\w+)\s+\w+[?[\]]*[^\n]*@(?:unique|id)\b/gm, (m) => [m[1] ?? '']);
  each(/@@(?:unique|id)\(\s*(?:fields:\s*)?\[([^\]]*)\]/g, (m) => namesIn(m[1] ?? ''));
  // SQLAlchemy and Django fields (`unique=True` may sit on a later line of the call).
  for (const { match, index } of matchesWithLines(text, /^\s*(\w+)\s*(?::[^=\n]+)?=\s*(?:[\w.]*\.)?(?:Column|mapped_column|\w+Field)\(/gm)) {
    const call = callText(text, index + match[0].length - 1);
    if (/\b(?:unique|primary_key)\s*=\s*True/.test(call)) add(match[1] ?? '', index, `${match[0]}${call.slice(1)}`);
  }
  each(/UniqueConstraint\(([^)]*)\)/g, (m) => namesIn((m[1] ?? '').replace(/\bname\s*=\s*["'][^"']*["']/, '')).filter((n) => !/^(fields|columnNames|name)$/.test(n)));
  each(/unique_together\s*=\s*([^\n]+)/g, (m) => namesIn(m[1] ?? ''));
  // JPA: `@Column(unique = true)` on the next field, or `@UniqueConstraint(columnNames = …)`.
  for (const { match, index } of matchesWithLines(text, /@Column\(([^)]*\bunique\s*=\s*true[^)]*)\)\s*(?:@\w+(?:\([^)]*\))?\s*)*(?:private|protected|public|val|var)?\s*(?:[\w<>]+\s+)?(\w+)/g)) {
    add(/\bname\s*=\s*"(\w+)"/.exec(match[1] ?? '')?.[1] ?? match[2] ?? '', index, match[0]);
  }
  // TypeORM and Mongoose: `@Column({ unique: true }) eventId`, `eventId: { type: String, unique: true }`.
  each(/@(?:Column|PrimaryColumn)\(\s*\{[^}]*\bunique:\s*true[^}]*\}\s*\)\s*(\w+)/g, (m) => [m[1] ?? '']);
  each(/@(?:Unique|Index)\(\s*(?:["'][^"']*["']\s*,\s*)?\[([^\]]*)\][^)]*?\)/g, (m) => (/@Unique|unique:\s*true/.test(m[0]) ? namesIn(m[1] ?? '') : []));
  each(/\b(\w+)\s*:\s*\{[^{}]*\bunique:\s*true/g, (m) => [m[1] ?? '']);
  // Rails, GORM, Drizzle, Knex.
  each(/\b(?:add_index\s+:\w+\s*,|t\.index)\s*(\[[^\]]*\]|:\w+)[^\n]*\bunique:\s*true/g, (m) => namesIn(m[1] ?? ''));
  each(/\bt\.\w+\s+:(\w+)[^\n]*index:\s*\{\s*unique:\s*true/g, (m) => [m[1] ?? '']);
  each(/^\s*(\w+)\s+[\w.*[\]]+\s+`[^`]*gorm:"[^"]*\bunique(?:Index)?\b[^`]*`/gm, (m) => [/column:(\w+)/.exec(m[0])?.[1] ?? m[1] ?? '']);
  each(/\b\w+\(\s*["'](\w+)["'][^)\n]*\)(?:\.\w+\([^)\n]*\))*\.unique\(\)/g, (m) => [m[1] ?? '']);
  each(/\.unique\(\s*\[([^\]]*)\]/g, (m) => namesIn(m[1] ?? ''));
  // One constraint seen by two patterns is one finding.
  return out.filter((u, i) => out.findIndex((o) => o.location === u.location && o.column === u.column) === i);
}

function tables(relPath: string, text: string): ProtectionScan['tables'] {
  const name = /(\w*(?:[Pp]rocessed|[Ii]nbox|[Ii]dempoten|[Dd]edup)\w*)/.source;
  const patterns = [
    new RegExp(`CREATE\\s+TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?["\`]?${name}`, 'gi'),
    new RegExp(`^model\\s+${name}\\s*\\{`, 'gmi'),
    // A model class (Django, SQLAlchemy, Mongo documents); its admin, view set or serializer is no table.
    new RegExp(`^class\\s+${name}(?<!Admin|ViewSet|View|Serializer|Form|Filter|FilterSet|Schema)\\s*\\((?![^)]*(?:ModelAdmin|ViewSet|Serializer|Form\\b))[^)]*(?:Model|Base|Document)[^)]*\\)`, 'gm'),
    new RegExp(`@Entity[\\s\\S]{0,200}?\\bclass\\s+${name}\\b`, 'g'),
    new RegExp(`create_table\\s+:${name}`, 'gi'),
  ];
  const out: ProtectionScan['tables'] = [];
  for (const pattern of patterns) {
    for (const { match, index } of matchesWithLines(text, pattern)) {
      const at = index + match[0].lastIndexOf(match[1] ?? '');
      out.push({ name: match[1] ?? '', location: formatLocation(relPath, line(text, at)), evidence: short(match[0].slice(match[0].lastIndexOf('\n') + 1)) });
    }
  }
  return out;
}

function locks(relPath: string, text: string): ProtectionScan['locks'] {
  const out: ProtectionScan['locks'] = [];
  const each = (pattern: RegExp, what: ProtectionScan['locks'][number]['what']): void => {
    const lines = text.split('\n');
    for (const { line: at } of matchesWithLines(text, pattern)) out.push({ location: formatLocation(relPath, at), evidence: short(lines[at - 1] ?? ''), what });
  };
  each(/\.set\([^)\n]*\bnx\s*=\s*True[^)\n]*\)|\.set\([^)\n]*["']NX["'][^)\n]*\)|\.set\([^)\n]*\{[^}\n]*\bNX:\s*true[^}\n]*\}|\.(?:setnx|setNX|SetNX|setIfAbsent)\([^)\n]*\)?/g, 'nx');
  each(/\bpg_(?:try_)?advisory_(?:xact_)?lock\b/g, 'advisory');
  each(/@SchedulerLock\([^)]*\)/g, 'shedlock');
  each(/sidekiq_options[^\n]*\block:\s*:\w+|\bbase\s*=\s*QueueOnce\b/g, 'unique-job');
  return out;
}

const LOOKUPS: readonly RegExp[] = [
  /\.objects\.(?:filter|get|exclude)\(\s*(\w+)\s*=/g,
  /\.objects\.(get_or_create|update_or_create)\(\s*(\w+)\s*=/g,
  /\.filter_by\(\s*(\w+)\s*=/g,
  /\.(?:filter|where)\(\s*\w+\.(?:c\.)?(\w+)\s*==/g,
  /\.(?:findUnique|findFirst|count)\(\s*\{\s*where:\s*\{\s*(\w+)/g,
  /\.(?:findOne|findOneBy|exists|countDocuments|findBy)\(\s*\{\s*(?:where:\s*\{\s*)?(\w+)/g,
  /\.(?:existsBy|findBy|countBy|findFirstBy)([A-Z]\w*?)(?:And[A-Z]\w*)?\(/g,
  /\.(?:exists\?|find_by|where)\(\s*(\w+):/g,
  /\bSELECT\b[^;"'`]*?\bFROM\s+["`]?\w+["`]?\s+WHERE\s+["`]?(\w+)["`]?\s*=/gi,
  /\.Where\(\s*"(\w+)\s*=\s*\?"/g,
];
const DEDUP_MODEL = '(\\w*(?:Processed|processed|Inbox|inbox|Idempoten|idempoten|Dedup|dedup)\\w*)';
/** Lookups named by a processed-events model or table, whatever columns they filter on. */
const MODEL_LOOKUPS: readonly RegExp[] = [
  new RegExp(`\\b${DEDUP_MODEL}\\.objects\\.(filter|get|exclude|get_or_create|update_or_create)\\(`, 'g'),
  new RegExp(`\\b${DEDUP_MODEL}\\.(exists\\?|find_by|where|find_or_create_by)\\(`, 'g'),
  new RegExp(`\\bquery\\(\\s*${DEDUP_MODEL}\\s*\\)()`, 'g'),
  new RegExp(`\\.${DEDUP_MODEL}\\.(findUnique|findFirst|count|upsert)\\(`, 'g'),
  new RegExp(`\\bFROM\\s+["\`]?${DEDUP_MODEL}["\`]?\\s+WHERE()`, 'gi'),
];
const COMBINED = /^(get_or_create|update_or_create|find_or_create_by|upsert)$/;
// `.add(` and `.set(` only on a session or a cache client: a Python set's `.add` is no insert.
const INSERT = /\.objects\.create\(|\.(?:create|insert\w*|save|persist|Create|put_item|sadd|hset|create!)\(|\b(?:session|db)\.add\(|\bINSERT\s+INTO\b|\b(?:redis|rdb|r|cache|client)\.set\(/i;
/** Calls to a provider or a client (`stripe.PaymentIntent.create(`) are work, not the marker insert. */
const PROVIDER_CALL = /\b(?:stripe|adyen|paypal|braintree|checkout|gateway|client|requests|httpx|axios|http)\b[\w.]*\.(?:create|add|set|insert)\w*\(/i;
const NOT_WORK = /^\s*(?:if\b|elif\b|else\b|return\b|raise\b|throw\b|continue\b|break\b|unless\b|end\b|[})\]]|#|\/\/|log|logger|console\.|print|\w+\s*=\s*(?:await\s+)?[\w.]*\.(?:objects|filter|find|query|select|where|get|exists))/i;
const TRANSACTION = /@Transactional\b|transaction\.atomic|\.begin\(\)|\.transaction\s*(?:\(|do\b)|\bBEGIN\b|\.Begin(?:Tx)?\(|\$transaction\(/;
const FUNCTION_START = /^\s*(?:async\s+)?def\s|^func\s|^\s*(?:export\s+)?(?:async\s+)?function\s|^\s*(?:public|private|protected)\s[^=;]*\(|^\s*def\s+\w+/;

/** A transaction opened in the function around line `at` (its decorator or its body up to `at`). */
function transactionAround(lines: readonly string[], at: number, relPath: string): string | undefined {
  let start = at - 1;
  while (start > 0 && at - start < 80 && !FUNCTION_START.test(lines[start] ?? '')) start -= 1;
  for (let i = Math.max(0, start - 4); i < at; i += 1) if (TRANSACTION.test(lines[i] ?? '')) return formatLocation(relPath, i + 1);
  return undefined;
}

/** Each lookup: its line and what it is keyed on (a key column, or a processed-events model). */
function lookups(text: string): Array<{ at: number; column?: string; model?: string; combined: boolean }> {
  const out: Array<{ at: number; column?: string; model?: string; combined: boolean }> = [];
  for (const pattern of LOOKUPS) {
    for (const { match, line: at } of matchesWithLines(text, pattern)) {
      const combined = match[1] === 'get_or_create' || match[1] === 'update_or_create';
      const written = combined ? match[2] : match[1];
      // JPA derives the property from the method name: `existsByEventId` → `eventId`.
      const column = written && /^[A-Z]/.test(written) ? `${written.charAt(0).toLowerCase()}${written.slice(1)}` : written;
      if (column && isKeyColumn(column)) out.push({ at, column, combined });
    }
  }
  for (const pattern of MODEL_LOOKUPS) {
    for (const { match, line: at } of matchesWithLines(text, pattern)) {
      if (!out.some((o) => o.at === at)) out.push({ at, model: match[1] ?? '', combined: COMBINED.test(match[2] ?? '') });
    }
  }
  return out;
}

/** A write of one model or table: `ProcessedMail.objects.create(`, `INSERT INTO processed_events`, `new ProcessedEvent(`. */
function modelInsert(model: string): RegExp {
  return new RegExp(`\\b${model}\\b[^\\n]*\\.(?:create|insert\\w*|save|add)!?\\(|INSERT\\s+INTO\\s+["\`]?${model}\\b|new\\s+${model}\\(|\\b${model}\\([^)]*\\)\\.save\\(`, 'i');
}

/** The first write of the same model or table anywhere in the file (the marker written in another function). */
function insertElsewhere(lines: readonly string[], model: string, at: number): number | undefined {
  const insert = modelInsert(model);
  const index = lines.findIndex((l, i) => i !== at - 1 && insert.test(l));
  return index < 0 ? undefined : index + 1;
}

function checks(relPath: string, text: string): ReadThenCheck[] {
  const lines = text.split('\n');
  const out: ReadThenCheck[] = [];
  for (const { at, column, model, combined } of lookups(text)) {
    const key = { ...(column ? { column } : {}), ...(model ? { model } : {}) };
    const before = lines.slice(Math.max(0, at - 4), at).join('\n');
    const rowLock = /select_for_update|FOR UPDATE|lock\(|with_lock|\.lock\b/i.test(`${before}\n${lines[at - 1] ?? ''}`);
    const transaction = transactionAround(lines, at, relPath);
    if (combined) {
      out.push({ ...key, location: formatLocation(relPath, at), evidence: short(lines[at - 1] ?? ''), insertLocation: formatLocation(relPath, at), workBeforeInsert: false, combined, rowLock, ...(transaction ? { transaction } : {}) });
      continue;
    }
    let work = false;
    let inserted = false;
    for (let i = at; i < Math.min(lines.length, at + 40); i += 1) {
      const current = lines[i] ?? '';
      if (FUNCTION_START.test(current)) break;
      const marker = model ? modelInsert(model).test(current) : INSERT.test(current) && !PROVIDER_CALL.test(current);
      if (marker && !LOOKUPS.some((l) => new RegExp(l.source, l.flags.replace('g', '')).test(current))) {
        out.push({ ...key, location: formatLocation(relPath, at), evidence: short(lines[at - 1] ?? ''), insertLocation: formatLocation(relPath, i + 1), workBeforeInsert: work, combined, rowLock, ...(transaction ? { transaction } : {}) });
        inserted = true;
        break;
      }
      // A call, with or without parentheses (`order.mark_paid!`, `svc.Charge(ctx)`), that is not the check itself.
      if (current.trim() && /[\w!?]\s*\(|\.\w+[!?]/.test(current) && !NOT_WORK.test(current)) work = true;
    }
    const later = !inserted && model ? insertElsewhere(lines, model, at) : undefined;
    if (later) {
      out.push({ ...key, location: formatLocation(relPath, at), evidence: short(lines[at - 1] ?? ''), insertLocation: formatLocation(relPath, later), workBeforeInsert: true, combined, rowLock, elsewhere: true, ...(transaction ? { transaction } : {}) });
    }
  }
  // One function, one finding: the first lookup before a given insert (a marker written elsewhere serves many lookups).
  return out.filter((c, i) => c.elsewhere || out.findIndex((o) => !o.elsewhere && o.insertLocation === c.insertLocation) === i);
}

/**
 * The existing-protection evidence of one file (nothing for test files).
 * @example scanExistingProtection('billing/models.py', 'event_id = models.CharField(max_length=64, unique=True)').uniqueColumns[0].column // 'event_id'
 */
export function scanExistingProtection(relPath: string, text: string): ProtectionScan {
  if (TEST_PATH.test(relPath) || !GATE.test(text)) return { uniqueColumns: [], checks: [], tables: [], locks: [] };
  return { uniqueColumns: uniqueColumns(relPath, text), checks: checks(relPath, text), tables: tables(relPath, text), locks: locks(relPath, text) };
}
