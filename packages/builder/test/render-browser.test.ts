/**
 * The HTML document in a real browser (headless Chromium through playwright-core): every TOC link
 * lands on its section, no request leaves the file, nothing overflows a phone's viewport outside
 * the scrollable code/table/diagram containers, axe-core finds no serious or critical violation
 * (light and dark), it prints, and screenshots at 1280 px, 390 px and in dark mode are kept in
 * test-results/.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { chromiumAvailable, launchChromium } from './support/chromium.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDesign } from '../src/design/build-design.js';
import { renderHtml } from '../src/render/html.js';
import { fixture, GENERATED_AT } from './fixtures.js';
import { makeWorkspace, REPO } from './support/workspace.js';

const available = await chromiumAvailable();
const RESULTS = join(REPO, 'test-results');

interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly nodes: readonly { readonly target: readonly string[] }[];
}

/** Runs axe-core inside the page (its source injected, nothing fetched) and returns the serious and critical violations. */
async function axeSerious(page: Page, source: string): Promise<string[]> {
  await page.addScriptTag({ content: source });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => ({ target: n.target })) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe.skipIf(!available)('the HTML design document in Chromium', () => {
  let browser: Browser;
  const workspace = makeWorkspace('browser');
  let file: string;
  let axeSource: string;

  beforeAll(async () => {
    browser = await launchChromium();
    file = join(workspace.dir, 'idempotency-design.html');
    await writeFile(file, await renderHtml(buildDesign(fixture('express-postgres-stripe'), { generatedAt: GENERATED_AT })));
    axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    await mkdir(RESULTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    workspace.remove();
  });

  it('lands every table-of-contents link on its section, highlights it, makes no request, and renders at 1280 px', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const requests: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith('file://')) requests.push(request.url());
    });
    await page.goto(`file://${file}`);
    const links = await page.$$eval('nav.toc a', (anchors) => anchors.map((a) => a.getAttribute('href') ?? ''));
    expect(links.length).toBeGreaterThan(30);
    // The sidebar stays in view while the page scrolls (sticky), beside the text, not above it.
    const sidebar = await page.evaluate(() => {
      const nav = document.querySelector('nav.toc') as HTMLElement;
      const main = document.querySelector('main') as HTMLElement;
      return { position: getComputedStyle(nav).position, beside: nav.getBoundingClientRect().right <= main.getBoundingClientRect().left + 1 };
    });
    expect(sidebar).toEqual({ position: 'sticky', beside: true });
    for (const href of links) {
      await page.click(`nav.toc a[href="${href}"]`);
      const landed = await page.evaluate((target) => {
        const element = document.getElementById(target.slice(1));
        if (!element) return { found: false, top: NaN, hash: location.hash };
        return { found: true, top: element.getBoundingClientRect().top, hash: location.hash };
      }, href);
      expect(landed.found, href).toBe(true);
      expect(landed.hash).toBe(href);
      const atEnd = await page.evaluate(() => Math.ceil(window.scrollY + window.innerHeight) >= document.documentElement.scrollHeight - 2);
      expect(atEnd || Math.abs(landed.top) < 40, `${href} top=${landed.top}`).toBe(true);
    }
    // The current section is highlighted in the contents once the observer has run.
    await page.click('nav.toc a[href="#concurrency"]');
    await page.waitForFunction(() => document.querySelector('nav.toc a.current') !== null);
    expect(requests).toEqual([]);
    const layout = await page.evaluate(() => ({
      tables: document.querySelectorAll('table').length,
      highlighted: document.querySelectorAll('pre.shiki span[style*="color"]').length,
      diagrams: document.querySelectorAll('svg.diagram').length,
      copyButtons: document.querySelectorAll('figure.code > button.copy').length,
      codeBlocks: document.querySelectorAll('figure.code').length,
      anchors: document.querySelectorAll('main h2 > a.anchor, main h3 > a.anchor, main h4 > a.anchor').length,
      headings: document.querySelectorAll('main h2, main h3, main h4').length,
      footer: document.querySelector('footer')?.textContent ?? '',
      overflowX: document.documentElement.scrollWidth > window.innerWidth + 1,
    }));
    expect(layout.tables).toBeGreaterThan(10);
    expect(layout.highlighted).toBeGreaterThan(100);
    expect(layout.diagrams).toBeGreaterThanOrEqual(2);
    expect(layout.copyButtons).toBe(layout.codeBlocks);
    expect(layout.anchors).toBe(layout.headings);
    expect(layout.footer).toContain('2025-06-01');
    expect(layout.overflowX).toBe(false);
    await page.evaluate(() => window.scrollTo(0, 0));
    const shot = await page.screenshot({ type: 'png' });
    await writeFile(join(RESULTS, 'builder-design-1280.png'), shot);
    expect(shot.byteLength).toBeLessThan(600_000);
    expect(await axeSerious(page, axeSource)).toEqual([]);
    await page.close();
  });

  it('fits a 390 px phone: contents collapsed, nothing wider than the viewport outside scrollable containers', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 });
    await page.goto(`file://${file}`);
    const phone = await page.evaluate(() => {
      const scrollers = 'pre, .table-wrap, .diagram-wrap';
      const offenders: string[] = [];
      for (const element of Array.from(document.querySelectorAll('body *'))) {
        if (element.closest(scrollers) && !element.matches(scrollers)) continue;
        const box = element.getBoundingClientRect();
        if (box.width > 0 && (box.right > window.innerWidth + 1 || box.left < -1)) offenders.push(`${element.tagName.toLowerCase()}.${element.className} right=${Math.round(box.right)}`);
      }
      const wraps = Array.from(document.querySelectorAll<HTMLElement>('.table-wrap, pre'));
      return {
        offenders: offenders.filter((o) => !o.startsWith('a.skip')).slice(0, 10),
        pageOverflow: document.documentElement.scrollWidth > window.innerWidth + 1,
        tocOpen: (document.querySelector('nav.toc details') as HTMLDetailsElement).open,
        scrollable: wraps.filter((w) => w.scrollWidth > w.clientWidth).every((w) => ['auto', 'scroll'].includes(getComputedStyle(w).overflowX)),
      };
    });
    expect(phone.offenders).toEqual([]);
    expect(phone.pageOverflow).toBe(false);
    expect(phone.tocOpen).toBe(false);
    expect(phone.scrollable).toBe(true);
    await writeFile(join(RESULTS, 'builder-design-390.png'), await page.screenshot({ type: 'png' }));
    // Opening the contents and following a link lands on the section and folds the list again.
    await page.click('nav.toc summary');
    await page.click('nav.toc a[href="#security"]');
    const after = await page.evaluate(() => ({ hash: location.hash, open: (document.querySelector('nav.toc details') as HTMLDetailsElement).open }));
    expect(after).toEqual({ hash: '#security', open: false });
    expect(await axeSerious(page, axeSource)).toEqual([]);
    await page.close();
  });

  it('has a dark theme that axe-core accepts, with diagrams drawn in the theme colours', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
    await page.goto(`file://${file}`);
    const dark = await page.evaluate(() => ({
      background: getComputedStyle(document.body).backgroundColor,
      stroke: getComputedStyle(document.querySelector('svg.diagram .d-edge') as Element).stroke,
      code: getComputedStyle(document.querySelector('pre.shiki') as Element).backgroundColor,
    }));
    expect(dark.background).toBe('rgb(13, 17, 23)');
    expect(dark.stroke).toBe('rgb(230, 237, 243)');
    expect(dark.code).toBe('rgb(10, 12, 16)'); // github-dark-high-contrast's background, not the light one
    await page.evaluate(() => document.getElementById('concurrency')?.scrollIntoView());
    await writeFile(join(RESULTS, 'builder-design-dark.png'), await page.screenshot({ type: 'png' }));
    expect(await axeSerious(page, axeSource)).toEqual([]);
    await page.close();
  });

  it('prints: the print stylesheet hides the navigation, unclips code and tables, and paginates', async () => {
    const page = await browser.newPage();
    await page.goto(`file://${file}`);
    await page.emulateMedia({ media: 'print' });
    const print = await page.evaluate(() => ({
      toc: getComputedStyle(document.querySelector('nav.toc') as Element).display,
      pre: getComputedStyle(document.querySelector('pre') as Element).whiteSpace,
      wrap: getComputedStyle(document.querySelector('.table-wrap') as Element).overflowX,
      diagram: (document.querySelector('svg.diagram') as SVGElement).getBoundingClientRect().width > 0,
    }));
    expect(print).toEqual({ toc: 'none', pre: 'pre-wrap', wrap: 'visible', diagram: true });
    const pdf = await page.pdf({ format: 'A4' });
    expect(pdf.byteLength).toBeGreaterThan(10_000);
    await page.close();
  });
});
