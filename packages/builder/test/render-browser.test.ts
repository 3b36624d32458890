/**
 * The HTML document in a real browser (headless Chromium through playwright-core): every TOC link
 * lands on its section, no request leaves the file, and a screenshot is kept in test-results/.
 */
import { access, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDesign } from '../src/design/build-design.js';
import { renderHtml } from '../src/render/html.js';
import { serviceAvailable } from '../../runtime/test/support/services.js';
import { fixture, GENERATED_AT } from './fixtures.js';
import { makeWorkspace, REPO } from './support/workspace.js';

const CHROMIUM = '/usr/bin/chromium';
const available = await serviceAvailable('Chromium (/usr/bin/chromium; apt-get install -y chromium)', () => access(CHROMIUM));

describe.skipIf(!available)('the HTML design document in Chromium', () => {
  let browser: Browser;
  const workspace = makeWorkspace('browser');
  let file: string;

  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    file = join(workspace.dir, 'idempotency-design.html');
    await writeFile(file, await renderHtml(buildDesign(fixture('express-postgres-stripe'), { generatedAt: GENERATED_AT })));
  });

  afterAll(async () => {
    await browser?.close();
    workspace.remove();
  });

  it('lands every table-of-contents link on its section, makes no request, and renders', async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    const requests: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith('file://')) requests.push(request.url());
    });
    await page.goto(`file://${file}`);
    const links = await page.$$eval('nav.toc a', (anchors) => anchors.map((a) => a.getAttribute('href') ?? ''));
    expect(links.length).toBeGreaterThan(30);
    for (const href of links) {
      await page.click(`nav.toc a[href="${href}"]`);
      const landed = await page.evaluate((target) => {
        const element = document.getElementById(target.slice(1));
        if (!element) return { found: false, top: NaN, hash: location.hash };
        return { found: true, top: element.getBoundingClientRect().top, hash: location.hash };
      }, href);
      expect(landed.found, href).toBe(true);
      expect(landed.hash).toBe(href);
      // Scrolled to the section: its top is at the top of the viewport (or the page ended first).
      const atEnd = await page.evaluate(() => Math.ceil(window.scrollY + window.innerHeight) >= document.documentElement.scrollHeight - 2);
      expect(atEnd || Math.abs(landed.top) < 40, `${href} top=${landed.top}`).toBe(true);
    }
    expect(requests).toEqual([]);
    const layout = await page.evaluate(() => ({
      tables: document.querySelectorAll('table').length,
      highlighted: document.querySelectorAll('pre.shiki span[style*="color"]').length,
      footer: document.querySelector('footer')?.textContent ?? '',
      overflowX: document.documentElement.scrollWidth > window.innerWidth + 1,
    }));
    expect(layout.tables).toBeGreaterThan(10);
    expect(layout.highlighted).toBeGreaterThan(100);
    expect(layout.footer).toContain('2025-06-01');
    expect(layout.overflowX).toBe(false);
    await page.evaluate(() => window.scrollTo(0, 0));
    await mkdir(join(REPO, 'test-results'), { recursive: true });
    const shot = await page.screenshot({ type: 'jpeg', quality: 70, clip: { x: 0, y: 0, width: 1200, height: 800 } });
    await writeFile(join(REPO, 'test-results', 'builder-design-document.jpg'), shot);
    expect(shot.byteLength).toBeLessThan(300_000);
    await page.close();
  });

  it('prints: the print stylesheet applies and the document paginates', async () => {
    const page = await browser.newPage();
    await page.goto(`file://${file}`);
    await page.emulateMedia({ media: 'print' });
    const tocBreak = await page.evaluate(() => getComputedStyle(document.querySelector('nav.toc') as Element).breakAfter);
    expect(tocBreak).toBe('page');
    const pdf = await page.pdf({ format: 'A4' });
    expect(pdf.byteLength).toBeGreaterThan(10_000);
    await page.close();
  });
});
