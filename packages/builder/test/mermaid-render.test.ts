/**
 * The Markdown document's Mermaid blocks rendered by Mermaid itself (the `mermaid` package's
 * browser bundle, injected into headless Chromium; nothing fetched): every block of every fixture
 * parses and lays out to an SVG with its states or participants, and a broken block is refused —
 * so the check can fail. The grammar-level check beside it (mermaid-syntax.test.ts) names the line.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { chromiumAvailable, launchChromium } from './support/chromium.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answersSchema } from '../src/answers.js';
import { buildDesign } from '../src/design/build-design.js';
import { renderMarkdown } from '../src/render/markdown.js';
import { FIXTURE_NAMES, fixture, GENERATED_AT } from './fixtures.js';

const available = await chromiumAvailable();

const blocks = (md: string) => [...md.matchAll(/```mermaid\n([\s\S]*?)\n```/g)].map((m) => m[1] as string);
const marketplace = answersSchema.parse(JSON.parse(readFileSync(join(import.meta.dirname, 'answers', 'marketplace-12-actions.json'), 'utf8')));

/** Renders one block in the page: the SVG text, or Mermaid's error message. */
async function render(page: Page, id: string, text: string): Promise<{ svg?: string; error?: string }> {
  return page.evaluate(
    async ({ id, text }) => {
      const mermaid = (window as unknown as { mermaid: { render: (id: string, text: string) => Promise<{ svg: string }> } }).mermaid;
      try {
        return { svg: (await mermaid.render(id, text)).svg };
      } catch (error) {
        return { error: String((error as Error).message ?? error) };
      }
    },
    { id, text },
  );
}

describe.skipIf(!available)('Mermaid blocks rendered by Mermaid in Chromium', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage();
    // Offline: any request leaving the page is refused, so Mermaid must render from the bundle alone.
    await page.route('**/*', (route) => route.abort());
    await page.setContent('<!doctype html><html><body></body></html>');
    await page.addScriptTag({ content: await readFile(createRequire(import.meta.url).resolve('mermaid/dist/mermaid.min.js'), 'utf8') });
    await page.evaluate(() => (window as unknown as { mermaid: { initialize: (o: object) => void } }).mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' }));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  it.each([...FIXTURE_NAMES, 'marketplace-12-actions'] as const)('%s: every block renders to an SVG', async (name) => {
    const answers = name === 'marketplace-12-actions' ? marketplace : fixture(name);
    const found = blocks(renderMarkdown(buildDesign(answers, { generatedAt: GENERATED_AT })));
    expect(found.length).toBeGreaterThanOrEqual(2);
    for (const [index, block] of found.entries()) {
      const result = await render(page, `m-${name}-${index}`, block);
      expect(result.error, block).toBeUndefined();
      expect(result.svg).toMatch(/^<svg[\s\S]*<\/svg>$/);
      // The diagram carries what the block names: every state or participant label appears in the SVG.
      const names = block.includes('stateDiagram') ? ['PROCESSING', 'COMPLETED'] : [...block.matchAll(/participant \S+ as ([^\n]+)/g)].map((m) => m[1] as string);
      for (const label of names) expect(result.svg).toContain(label.replaceAll('&', '&amp;'));
    }
  }, 60_000);

  it('refuses a block Mermaid cannot parse (the check can fail)', async () => {
    const result = await render(page, 'm-broken', 'stateDiagram-v2\n  [*] --> PROCESSING: claim: v = store clock ms\n  PROCESSING --> --> COMPLETED');
    expect(result.error).toBeDefined();
  });
});
