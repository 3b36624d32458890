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

const MIDDLEWARE = /(express|fastify|hono|koa|nestjs|fetch|graphql|next-pages)\.ts$|protect\.ts$|worker\.ts$|_integration\.py$|middleware\.go$|gin\.go$|IdempotentExecutor\.java$|engine\.(py|go)$|IdempotencyEngine\.java$/;

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
