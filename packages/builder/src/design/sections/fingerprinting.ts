/** Section 3: request fingerprinting — hashed fields per action, fields left out, mismatch answer. */
import { problemAnswer } from '@idempotency-builder/runtime/contract';
import { bullets, code, codeBlock, collapse, join, labelled, rich, section, table, txt } from '../inline.js';
import type { Block, Inline, Section } from '../model.js';
import type { ActionPlan, Plan } from '../plan/plan.js';
import type { CodeLang } from '../plan/stack.js';
import { expectedFingerprint } from '../plan/expected-fingerprint.js';
import { sampleBodies } from '../plan/samples.js';
import { artifactAt, RUNTIME_DOCS, type DesignContext } from './context.js';
import { groupBy, groupNames, withoutName } from './grouping.js';

const COMPARE: Record<CodeLang, string> = {
  typescript: 'crypto.timingSafeEqual',
  python: 'hmac.compare_digest',
  go: 'subtle.ConstantTimeCompare',
  java: 'MessageDigest.isEqual',
};

/** One row per distinct (field, reason): a field explained once however many actions hash it. */
function fieldTable(plan: Plan, pick: (a: ActionPlan) => readonly { field: string; reason: string }[]): (string | Inline[])[][] {
  const rows = new Map<string, { field: string; reason: string; actions: string[] }>();
  for (const a of plan.actions) {
    for (const f of pick(a)) {
      const reason = withoutName(a, f.reason).split('{action}').join('the action');
      const key = `${f.field}\u0000${reason}`;
      const row = rows.get(key) ?? { field: f.field, reason, actions: [] };
      row.actions.push(a.action.name);
      rows.set(key, row);
    }
  }
  const everyone = plan.actions.length;
  const list = [...rows.values()];
  // Which action hashes which field is in the per-action table; the column only says something when rows differ.
  if (list.every((row) => row.actions.length === everyone)) return list.map((row) => [[code(row.field)], rich(row.reason)]);
  return list.map((row) => [[code(row.field)], rich(row.reason), row.actions.length === everyone ? 'all' : row.actions.length > 3 ? `${row.actions.length} actions` : row.actions.join(', ')]);
}

const columns = (rows: readonly unknown[][], first: string, second: string) => (rows.some((row) => row.length > 2) ? [first, second, 'Actions'] : [first, second]);

/**
 * Section 3: the fingerprint algorithm, the utility, and the hashed/left-out fields per action.
 * @example fingerprintingSection({ plan, artifacts })
 */
export function fingerprintingSection(ctx: DesignContext): Section {
  const { plan } = ctx;
  const utility = artifactAt(ctx, plan.stack.language === 'typescript' ? 'fingerprints.ts' : plan.stack.language === 'python' ? 'fingerprint.py' : plan.stack.language === 'go' ? 'fingerprint.go' : 'Fingerprint.java');
  const mismatch = problemAnswer('fingerprint_mismatch');
  const blocks: Block[] = [
    bullets([
      labelled('Algorithm and encoding', txt`SHA-256, lowercase hex, of method, path, the significant fields as canonical JSON (RFC 8785) and the sorted query string, each part length-prefixed; with no fields named, the whole body minus timestamps and trace ids. Identical bytes in TypeScript, Python, Go and Java${plan.stack.language === 'typescript' ? rich(` (the runtime’s \`requestFingerprint\`, documented in \`${RUNTIME_DOCS}http.md\`)`) : ''}.`),
      labelled('Comparison', txt`constant-time (${code(COMPARE[plan.stack.language])}).`),
      labelled('Money', txt`send amounts as integer minor units (\`4999\`, not \`49.99\`).`),
      labelled('Mismatch behaviour', txt`409 with the problem body below; it never contains the original request, its fingerprint or the stored response.`),
    ]),
    // The adapters' own answer, built by the runtime: the document cannot show another body or type.
    codeBlock('json', JSON.stringify(mismatch.body, null, 2), `HTTP/1.1 ${mismatch.status} Conflict — Content-Type: ${mismatch.headers['content-type'] ?? 'application/problem+json'}`),
  ];
  if (utility) blocks.push(codeBlock(utility.language === 'markdown' ? 'text' : utility.language, utility.content, `Fingerprint utility — ${utility.path}`));
  // One worked example per distinct set of hashed fields: the same fields hash the same way.
  const examples = groupBy(plan.actions, (a) => JSON.stringify(a.fields.map((f) => f.field)), (a) => a).map(({ actions, value: a }) => {
    const { same } = sampleBodies(a.action);
    return [groupNames(actions), join(a.fields.map((f) => [code(f.field)])), [code(JSON.stringify(same))], [code(expectedFingerprint(a, same))]];
  });
  const hashed = fieldTable(plan, (a) => a.fields);
  const left = fieldTable(plan, (a) => a.excluded);
  blocks.push(
    table(['Action', 'Hashed fields', 'Example body', 'Its fingerprint'], examples, 'Hashed fields, with a worked example the generated test asserts'),
    collapse(table(columns(hashed, 'Field', 'Why it is significant'), hashed, 'Why each hashed field is significant'), 'Why each field is hashed'),
    // What is left out is named in the summary; why each is left out is reference.
    collapse(table(columns(left, 'Left out', 'Why'), left, 'Fields deliberately not hashed'), `Not hashed, and why: ${[...new Set(plan.actions.flatMap((a) => a.excluded.map((f) => f.field.replace(/ \(.*$/, ''))))].join(', ')}`),
  );
  return section('fingerprinting', '3. Request fingerprinting', blocks);
}
