/**
 * Rendering: Markdown and HTML carry the same structure; the HTML is one self-contained file with
 * no external URL, a TOC that matches the sections, highlighted code and a print stylesheet; and
 * nothing user-derived can inject markup into either format.
 */
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { answersSchema } from '../src/answers.js';
import { buildDesign } from '../src/design/build-design.js';
import type { Section } from '../src/design/model.js';
import { renderHtml } from '../src/render/html.js';
import { renderMarkdown } from '../src/render/markdown.js';
import { FIXTURES, fixture, GENERATED_AT } from './fixtures.js';

const flatten = (sections: readonly Section[]): Section[] => sections.flatMap((s) => [s, ...flatten(s.children)]);

/** Every attribute or CSS reference that would make the browser fetch something. */
export function externalReferences(html: string): string[] {
  const found: string[] = [];
  for (const match of html.matchAll(/\b(?:src|href|action|poster|data|srcset)\s*=\s*["']?\s*((?:https?:)?\/\/[^"'\s>]+)/gi)) found.push(match[1] ?? '');
  for (const match of html.matchAll(/@import\s+[^;]+|url\(\s*["']?(?!#)(?!data:)[^)"']+/gi)) found.push(match[0]);
  // The document's one inline <script> (no attribute, so nothing to fetch) is allowed; any other is not.
  for (const match of html.matchAll(/<(?:link|script(?!>)|iframe|img|object|embed)\b[^>]*>/gi)) found.push(match[0]);
  return found;
}

describe('renderHtml and renderMarkdown', () => {
  const model = buildDesign(fixture('express-postgres-stripe'), { generatedAt: GENERATED_AT });
  let rendered: Promise<string> | undefined;
  // Highlighting every block takes a second or two: render once, read many times.
  const renderOnce = () => (rendered ??= renderHtml(model));

  it('render the same sections in the same order, with the same anchors', async () => {
    const html = await renderOnce();
    const md = renderMarkdown(model);
    const sections = flatten(model.sections);
    const htmlIds = [...html.matchAll(/<section id="([^"]+)">\n<h(\d)>/g)].map((m) => m[1]);
    const mdIds = [...md.matchAll(/<a id="([^"]+)"><\/a>\n\n#{2,6} /g)].map((m) => m[1]);
    expect(htmlIds).toEqual(sections.map((s) => s.id));
    expect(mdIds).toEqual(sections.map((s) => s.id));
    const htmlHeadings = [...html.matchAll(/<h([2-6])>([^<]*)<a class="anchor" href="#([^"]+)" aria-label="[^"]*"><\/a><\/h\1>/g)];
    expect(htmlHeadings).toHaveLength(sections.length);
    // Every heading carries an anchor to its own section.
    expect(htmlHeadings.map((m) => m[3])).toEqual(sections.map((s) => s.id));
  });

  it('makes one self-contained HTML file: inline CSS, no external URL of any kind', async () => {
    const html = await renderOnce();
    expect(externalReferences(html)).toEqual([]);
    expect(html).not.toMatch(/https?:\/\//);
    expect(html.match(/<style>/g)).toHaveLength(1);
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain('prefers-color-scheme: dark');
    expect(html).toContain('@media print');
    expect(html).toMatch(/<footer>Generated 2025-06-01 12:00:00 UTC by idempotency-builder\.<\/footer>/);
  });

  it('links every table-of-contents entry to a section that exists', async () => {
    const html = await renderOnce();
    const toc = /<nav class="toc"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? '';
    const targets = [...toc.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]);
    const ids = new Set([...html.matchAll(/<section id="([^"]+)">/g)].map((m) => m[1]));
    expect(targets.length).toBeGreaterThan(30);
    for (const target of targets) expect(ids.has(target)).toBe(true);
  });

  it('highlights code with inline styles only (shiki, offline) and styles tables', async () => {
    const html = await renderOnce();
    expect(html).toMatch(/<pre class="shiki[^"]*" style="[^"]*background-color:[^"]*"[^>]*><code>/);
    expect(html).toMatch(/<span style="color:#[0-9A-Fa-f]{6};--shiki-dark:#[0-9A-Fa-f]{6}">CREATE<\/span>/);
    expect(html).not.toMatch(/class="(?!shiki|line|page|toc|subtitle|callout|layout|skip|anchor|code|table-wrap|diagram|d-)[^"]*"/);
    expect(html).toMatch(/<table><caption>|<table><thead>/);
  });

  it('escapes everything user-derived in both formats', async () => {
    const hostile = answersSchema.parse({
      ...FIXTURES['express-postgres-stripe'],
      projectName: '<img src=x onerror=alert(1)>',
      actions: [
        {
          ...FIXTURES['express-postgres-stripe'].actions[0],
          description: '<script>alert("x")</script> [click](javascript:alert(1)) <b>x</b> **bold** `tick` | pipe',
          steps: ['<img src=y>', 'charge'],
        },
      ],
    });
    const hostileModel = buildDesign(hostile, { generatedAt: GENERATED_AT });
    const html = await renderHtml(hostileModel);
    expect(html.replace(/<script>[\s\S]*?<\/script>\n<\/body>/, '')).not.toMatch(/<script|<img|<b>x<\/b>|href="javascript/i);
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    const md = renderMarkdown(hostileModel);
    const rendered = new MarkdownIt({ html: true }).render(md);
    // Even a renderer that allows raw HTML sees only escaped text: no tag, no javascript: link.
    expect(rendered).not.toMatch(/<script|<img|<b>x<\/b>|href="javascript/i);
    expect(md).toContain('\\<script\\>');
  });

  it('refuses field names, routes and channels that would break out of a string in generated code', () => {
    const base = FIXTURES['express-postgres-stripe'];
    const withAction = (patch: object) => answersSchema.parse({ ...base, actions: [{ ...base.actions[0], ...patch }] });
    expect(() => buildDesign(withAction({ significantFields: ['amount', 'x"); drop'] }), { generatedAt: GENERATED_AT })).toThrow(/significant field/);
    expect(() => buildDesign(withAction({ route: '/pay"><script>' }), { generatedAt: GENERATED_AT })).toThrow(/route/);
    expect(() => buildDesign(withAction({ kind: 'consumer', channel: 'q\u0000"' }), { generatedAt: GENERATED_AT })).toThrow(/channel/);
    const named = buildDesign(answersSchema.parse({ ...base, projectName: 'api\nprocess.exit(1)' }), { generatedAt: GENERATED_AT });
    expect(named.artifacts.find((a) => a.path === 'idempotency.ts')?.content.split('\n')[0]).toBe('// Idempotency engine for api_process.exit_1_: one store, and the lock timeout (leaseMs) and key');
  });

  it('embeds a machine-readable marker naming the actions', async () => {
    const md = renderMarkdown(model);
    const html = await renderOnce();
    expect(md.split('\n')[0]).toBe(`<!-- idempotency-builder:design ${JSON.stringify(model.meta)} -->`);
    expect(html).toContain('<meta name="idempotency-builder:design" content="{&quot;version&quot;:1,&quot;actions&quot;:[&quot;createPayment&quot;');
  });
});
