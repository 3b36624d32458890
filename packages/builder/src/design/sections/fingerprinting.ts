/** Section 3: request fingerprinting — hashed fields per action, fields left out, mismatch answer. */
import { problemAnswer } from '@idempotency-builder/runtime/contract';
import { bullets, code, codeBlock, labelled, para, rich, section, table, txt } from '../inline.js';
import type { Section } from '../model.js';
import type { ActionPlan } from '../plan/plan.js';
import type { CodeLang } from '../plan/stack.js';
import { expectedFingerprint } from '../plan/expected-fingerprint.js';
import { sampleBodies } from '../plan/samples.js';
import { actionAnchor, artifactAt, type DesignContext } from './context.js';

const COMPARE: Record<CodeLang, string> = {
  typescript: 'crypto.timingSafeEqual',
  python: 'hmac.compare_digest',
  go: 'subtle.ConstantTimeCompare',
  java: 'MessageDigest.isEqual',
};

function perAction(a: ActionPlan): Section {
  const { same } = sampleBodies(a.action);
  return section(actionAnchor('fingerprint', a), `Fingerprint of ${a.action.name}`, [
    table(['Field', 'Why it is significant'], a.fields.map((field) => [[code(field.field)], rich(field.reason)]), `Hashed fields of ${a.action.name}`),
    table(['Left out', 'Why'], a.excluded.map((field) => [field.field, field.reason]), `Fields deliberately not hashed for ${a.action.name}`),
    para(txt`Example: the body ${code(JSON.stringify(same))} gives fingerprint ${code(expectedFingerprint(a, same))}.`),
  ]);
}

/**
 * Section 3: the fingerprint algorithm, the utility, and the hashed/left-out fields per action.
 * @example fingerprintingSection({ plan, artifacts })
 */
export function fingerprintingSection(ctx: DesignContext): Section {
  const { plan } = ctx;
  const utility = artifactAt(ctx, plan.stack.language === 'typescript' ? 'fingerprints.ts' : plan.stack.language === 'python' ? 'fingerprint.py' : plan.stack.language === 'go' ? 'fingerprint.go' : 'Fingerprint.java');
  const mismatch = problemAnswer('fingerprint_mismatch');
  const blocks = [
    para(txt`The fingerprint is a hash of the fields that, if changed, make a request a different intent. The key says “this is the same attempt”; the fingerprint checks that the caller is not reusing the key for something else.`),
    bullets([
      labelled('Algorithm and encoding', txt`SHA-256, lowercase hex (64 characters, stored in \`fingerprint CHAR(64)\`). Input: the parts \`[method, path, "fields", SHA-256(canonical JSON of the significant values in order)]\`, each typed and length-prefixed and joined with \`|\` — so \`("a|b","c")\` and \`("a","b|c")\` differ, key order and number formatting in the body do not matter (RFC 8785 canonical JSON), and the TypeScript, Python, Go and Java utilities produce identical bytes.`),
      labelled('Binding', txt`method and path are always included, so one key replayed against another endpoint is a mismatch — never a replay of the wrong response.`),
      labelled('Comparison', txt`constant-time: ${code(COMPARE[plan.stack.language])}, so response time reveals nothing about the stored hash.`),
      labelled('Money', txt`send amounts as integer minor units (\`4999\`, not \`49.99\`): decimal formatting differs between languages at the edges, integers never do.`),
      labelled('Mismatch behaviour', txt`409 Conflict with a problem+json body that says the key was used with different parameters. It never contains the original request, its fingerprint, or the stored response.`),
    ]),
    // The adapters' own answer, built by the runtime: the document cannot show another body or type.
    codeBlock('json', JSON.stringify(mismatch.body, null, 2), `HTTP/1.1 ${mismatch.status} Conflict — Content-Type: ${mismatch.headers['content-type'] ?? 'application/problem+json'}`),
  ];
  if (utility) blocks.push(codeBlock(utility.language === 'markdown' ? 'text' : utility.language, utility.content, `Fingerprint utility — ${utility.path}`));
  return section('fingerprinting', '3. Request fingerprinting', blocks, plan.actions.map(perAction));
}
