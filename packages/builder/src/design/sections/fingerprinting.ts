/** Section 3: request fingerprinting — hashed fields per action, fields left out, mismatch answer. */
import { problemAnswer } from '@idempotency-builder/runtime/contract';
import { bullets, code, codeBlock, join, labelled, para, rich, section, table, txt } from '../inline.js';
import type { Block, Inline, Section } from '../model.js';
import type { ActionPlan, Plan } from '../plan/plan.js';
import type { CodeLang } from '../plan/stack.js';
import { expectedFingerprint } from '../plan/expected-fingerprint.js';
import { sampleBodies } from '../plan/samples.js';
import { artifactAt, type DesignContext } from './context.js';
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
  // Which action hashes which field is in the per-action table; here a long list of names would only repeat it.
  return [...rows.values()].map((row) => [[code(row.field)], rich(row.reason), row.actions.length === everyone ? (everyone === 1 ? row.actions[0] ?? '' : 'all') : row.actions.length > 3 ? `${row.actions.length} actions` : row.actions.join(', ')]);
}

/**
 * Section 3: the fingerprint algorithm, the utility, and the hashed/left-out fields per action.
 * @example fingerprintingSection({ plan, artifacts })
 */
export function fingerprintingSection(ctx: DesignContext): Section {
  const { plan } = ctx;
  const utility = artifactAt(ctx, plan.stack.language === 'typescript' ? 'fingerprints.ts' : plan.stack.language === 'python' ? 'fingerprint.py' : plan.stack.language === 'go' ? 'fingerprint.go' : 'Fingerprint.java');
  const mismatch = problemAnswer('fingerprint_mismatch');
  const blocks: Block[] = [
    para(txt`The fingerprint is a hash of the fields that, if changed, make a request a different intent. The key says “this is the same attempt”; the fingerprint checks that the caller is not reusing the key for something else.`),
    bullets([
      labelled('Algorithm and encoding', txt`SHA-256, lowercase hex (64 characters, stored in \`fingerprint CHAR(64)\`). Input: the parts \`[method, path, "fields2", SHA-256(canonical JSON of the significant fields in order, each \`[1, value]\` when present and \`[0]\` when missing)]\` — or \`"json"\` and the canonical JSON of the whole body (minus top-level timestamps and trace ids) for an action whose code names no fields — then the query string's sorted pairs when there is one; each part typed and length-prefixed and joined with \`|\` — so \`("a|b","c")\` and \`("a","b|c")\` differ, key order and number formatting in the body do not matter (RFC 8785 canonical JSON), and the TypeScript, Python, Go and Java utilities produce identical bytes.`),
      labelled('Binding', txt`method and path are always included, so one key replayed against another endpoint is a mismatch — never a replay of the wrong response.`),
      labelled('Comparison', txt`constant-time: ${code(COMPARE[plan.stack.language])}, so response time reveals nothing about the stored hash.`),
      labelled('Money', txt`send amounts as integer minor units (\`4999\`, not \`49.99\`): decimal formatting differs between languages at the edges, integers never do.`),
      labelled('Mismatch behaviour', txt`409 Conflict with a problem+json body that says the key was used with different parameters. It never contains the original request, its fingerprint, or the stored response.`),
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
  blocks.push(
    table(['Action', 'Hashed fields', 'Example body', 'Its fingerprint'], examples, 'Hashed fields per action, with a worked example (the generated test asserts the same values)'),
    table(['Field', 'Why it is significant', 'Actions'], fieldTable(plan, (a) => a.fields), 'Why each hashed field is significant'),
    table(['Left out', 'Why', 'Actions'], fieldTable(plan, (a) => a.excluded), 'Fields deliberately not hashed'),
  );
  return section('fingerprinting', '3. Request fingerprinting', blocks);
}
