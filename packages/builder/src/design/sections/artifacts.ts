/** Section 14: the code artifacts — every generated file, and the middleware embedded for reading. */
import { isPagesRoute } from '../../emit/typescript/next-pages-file.js';
import { subpathAvailable } from '../../emit/typescript/runtime-api.js';
import { callout, code, codeBlock, collapse, para, plain, rich, section, table, txt } from '../inline.js';
import type { Block, Section } from '../model.js';
import type { DesignContext } from './context.js';
import { deliverablesTable } from './front-matter.js';

const PLACEMENT = {
  typescript: 'Place the folder in your source tree (e.g. `src/idempotency/`).',
  python: 'The folder is a Python package (relative imports inside); keep it importable, e.g. as `idempotency/` at the project root, and run its tests with `python -m pytest idempotency`.',
  go: 'The files are `package idempotency`: put the folder inside your module (e.g. `internal/idempotency/`) and run `go test ./internal/idempotency`. The Gin glue builds with `-tags gin`.',
  java: 'The classes are in package `com.example.idempotency`: move them to `src/main/java/com/example/idempotency/` (the test to `src/test/java/…`) and rename the package to yours.',
} as const;

/** What server-actions.ts does and what the page must do for it: the key comes from the client, not a header. */
function serverActionBlocks(names: readonly string[], principals: readonly string[]): Block[] {
  return [callout('note', 'Next.js server actions: the key comes from the form', [
    txt`${names.join(', ')} ${names.length === 1 ? 'is a server action' : 'are server actions'}: Next posts ${names.length === 1 ? 'it' : 'them'} to whichever page renders the form, without an ${code('Idempotency-Key')} header, so \`server-actions.ts\` wraps each one with the runtime's ${code('makeIdempotent')} (${code('@idempotency-builder/runtime/functions')}). Export the wrapped function from your ${code("'use server'")} module: ${code("export const checkout = idempotentServerAction('checkout', checkoutUnprotected, { principal: async () => (await auth())?.user?.id })")}. ${principals.length > 0 ? txt`The user is read in the code as ${principals.join('; ')}: the ${code('principal')} selector should return that user's id.` : txt`No action reads the signed-in user in its own body: pass the ${code('principal')} selector your auth library's call.`} An action that runs before sign-in (sign-up, a password-reset request) has no user: its selector returns what identifies the caller there (${code("(formData) => String(formData.get('email'))")}), or ${code("'global'")} by explicit choice.`,
    txt`Client side: the page generates one key per form render — ${code('<input type="hidden" name="idempotencyKey" value={crypto.randomUUID()} />')} in a server component, ${code('useState(() => crypto.randomUUID())')} in a client one — and a retry (a double click, a resubmission after a network error) resends the same form with the same key; the next intent is a new render with a new key. An action called with arguments takes the key as a property ${code('idempotencyKey')} of an object argument, or through the ${code('key')} selector. No key: ${code('invalid_key')}, the action does not run — or, with ${code('required: false')} (observe mode, while the forms are changed), it runs unguarded; no signed-in user: ${code('invalid_scope')}.`,
    txt`The record is ${code('makeIdempotent')}'s: key ${code('<action>:<idempotencyKey>')}, scope the user id from ${code('principal')}, fingerprint the RFC 8785 canonical JSON (${code('fingerprintJson')}) of the action's significant fields read from the form or object argument, with the plain arguments (an id bound with ${code('.bind(null, id)')}) beside them (every argument but the key when no field is found), lock timeout and expiry from ${code('POLICIES')}. A ${code('redirect()')} or ${code('notFound()')} the action answers with is stored as its result and thrown again on a replay. A server action answers no HTTP status of its own: a duplicate of a running action, or a key reused with other fields, is the runtime's ${code('InProgressError')} or ${code('FingerprintMismatchError')} thrown from the action (Next hands the client an error) — the 409s of section 4 are the route middleware's.`,
  ])];
}

const MIDDLEWARE = /(express|fastify|hono|koa|nestjs|fetch|graphql|next-pages|server-actions)\.ts$|protect\.ts$|worker\.ts$|_integration\.py$|middleware\.go$|gin\.go$|IdempotentExecutor\.java$|engine\.(py|go)$|IdempotencyEngine\.java$/;

/**
 * Section 14: the generated files, with the middleware embedded.
 * @example artifactsSection({ plan, artifacts })
 */
export function artifactsSection(ctx: DesignContext): Section {
  const { plan, artifacts } = ctx;
  const blocks: Block[] = [
    collapse(table(['File', 'Purpose'], artifacts.map((artifact) => [[code(artifact.path)], artifact.purpose]), 'Written under the code directory (an existing file is kept unless forced)'), `Show the ${artifacts.length} files and what each is for`),
    deliverablesTable(),
  ];
  if (plan.stack.language === 'typescript') {
    const missing = [...new Set(artifacts.flatMap((artifact) => [...artifact.content.matchAll(/from '(@idempotency-builder\/runtime(?:\/[a-z]+)?)'/g)].map((m) => m[1] as string)))].filter(
      (module) => !subpathAvailable(module),
    );
    blocks.push(para(txt`Install the runtime the files use: ${code('npm install @idempotency-builder/runtime')} plus your driver.`));
    const actions = plan.actions.filter((a) => a.action.serverAction);
    if (actions.length > 0) blocks.push(...serverActionBlocks(actions.map((a) => a.action.name), actions.flatMap((a) => (a.action.principalCall ? [`${a.action.name}: ${a.action.principalCall}`] : []))));
    // Header-keyed pages routes get next-pages.ts; a pages webhook would get the Fetch-API mount, which takes a Request.
    const pagesHooks = plan.actions.filter((a) => plan.stack.framework === 'fetch' && a.action.kind === 'webhook' && isPagesRoute(a));
    if (pagesHooks.length > 0) {
      blocks.push(callout('warning', 'Next.js pages-router webhooks', [txt`${pagesHooks.map((a) => a.action.name).join(', ')} ${pagesHooks.length === 1 ? 'is a' : 'are'} \`pages/api\` webhook${pagesHooks.length === 1 ? '' : 's'} taking Node's \`(req, res)\`; \`webhooks.ts\` mounts webhooks with \`fetchWebhook\`, which takes an app-router \`Request\`. With \`bodyParser: false\`, call the handler's \`handle({ rawBody, headers })\` on the raw body and send its \`response\` with \`writeNodeResponse\` from \`@idempotency-builder/runtime/http\` — idempotency-builder has not run this under Next.js: test it in your app before relying on it.`]));
    }
    if (missing.length > 0) {
      blocks.push(callout('warning', 'Not yet in this version of idempotency-builder', [txt`${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} imported by the generated code but not exported by the installed runtime. Implement the \`IdempotencyStore\` contract with the statements of section 4 until ${missing.length === 1 ? 'it ships' : 'they ship'}.`]));
    }
  } else {
    blocks.push(para(plain(`The ${plan.stack.languageName} files are standalone: standard library plus your database driver, no idempotency-builder runtime.`)));
    const mutations = plan.actions.filter((a) => a.action.operation);
    if (mutations.length > 0) {
      // Route middleware on the shared GraphQL endpoint would guard queries too and hash the query text.
      blocks.push(callout('warning', 'GraphQL mutations: not guarded by the web integration', [txt`${mutations.map((a) => `${a.action.name} (${a.trigger})`).join(', ')} share one endpoint with every other operation, so the generated middleware must not wrap the GraphQL view. Call the engine's \`run\` inside each mutation's resolver instead: intent = the mutation's \`idempotencyKey\` argument, scope = the authenticated user from the resolver context, fingerprint = the fingerprint utility over the mutation's input with the action's name and route. No resolver glue is generated for ${plan.stack.languageName}.`]));
    }
  }
  const paypal = plan.stack.language === 'typescript' && plan.actions.some((a) => a.action.provider === 'paypal');
  blocks.push(para(rich(`${PLACEMENT[plan.stack.language]}${paypal ? ' PayPal keys need `uuid` in your dependencies.' : ''}`)));
  for (const artifact of artifacts.filter((a) => MIDDLEWARE.test(a.path))) {
    blocks.push(codeBlock(artifact.language === 'markdown' ? 'text' : artifact.language, artifact.content, artifact.path));
  }
  return section('artifacts', '14. Code artifacts', blocks);
}
