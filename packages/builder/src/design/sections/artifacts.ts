/** Section 14: the code artifacts — every generated file, and the middleware embedded for reading. */
import { subpathAvailable } from '../../emit/typescript/runtime-api.js';
import { callout, code, codeBlock, para, plain, rich, section, table, txt } from '../inline.js';
import type { Block, Section } from '../model.js';
import type { DesignContext } from './context.js';
import { deliverablesTable } from './front-matter.js';

const PLACEMENT = {
  typescript: 'Place the folder in your source tree (e.g. `src/idempotency/`); the test runs with your test runner as it is. If a payment provider is PayPal, add `uuid` to your dependencies.',
  python: 'The folder is a Python package (relative imports inside); keep it importable, e.g. as `idempotency/` at the project root, and run its tests with `python -m pytest idempotency`.',
  go: 'The files are `package idempotency`: put the folder inside your module (e.g. `internal/idempotency/`) and run `go test ./internal/idempotency`. The Gin glue builds with `-tags gin`.',
  java: 'The classes are in package `com.example.idempotency`: move them to `src/main/java/com/example/idempotency/` (the test to `src/test/java/…`) and rename the package to yours.',
} as const;

const MIDDLEWARE = /(express|fastify|hono|nestjs|fetch)\.ts$|protect\.ts$|worker\.ts$|_integration\.py$|middleware\.go$|gin\.go$|IdempotentExecutor\.java$|engine\.(py|go)$|IdempotencyEngine\.java$/;

/**
 * Section 14: the generated files, with the middleware embedded.
 * @example artifactsSection({ plan, artifacts })
 */
export function artifactsSection(ctx: DesignContext): Section {
  const { plan, artifacts } = ctx;
  const blocks: Block[] = [
    para(txt`Written as real files under the code directory (never over an existing file unless forced). Each file’s purpose:`),
    table(['File', 'Purpose'], artifacts.map((artifact) => [[code(artifact.path)], artifact.purpose])),
    deliverablesTable(),
  ];
  if (plan.stack.language === 'typescript') {
    const missing = [...new Set(artifacts.flatMap((artifact) => [...artifact.content.matchAll(/from '(@idempotency-builder\/runtime(?:\/[a-z]+)?)'/g)].map((m) => m[1] as string)))].filter(
      (module) => !subpathAvailable(module),
    );
    blocks.push(para(txt`The TypeScript files use the idempotency-builder runtime: install it with its peers (${code('npm install @idempotency-builder/runtime')} plus your driver).`));
    if (missing.length > 0) {
      blocks.push(callout('warning', 'Not yet in this version of idempotency-builder', [txt`${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} imported by the generated code but not exported by the installed runtime. Implement the \`IdempotencyStore\` contract with the statements of section 4 until ${missing.length === 1 ? 'it ships' : 'they ship'}.`]));
    }
  } else {
    blocks.push(para(plain(`The ${plan.stack.languageName} files are standalone: standard library plus your database driver, no idempotency-builder runtime.`)));
  }
  blocks.push(para(rich(PLACEMENT[plan.stack.language])));
  for (const artifact of artifacts.filter((a) => MIDDLEWARE.test(a.path))) {
    blocks.push(codeBlock(artifact.language === 'markdown' ? 'text' : artifact.language, artifact.content, artifact.path));
  }
  return section('artifacts', '14. Code artifacts', blocks);
}
