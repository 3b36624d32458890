/**
 * checkDocument: every generated document passes all seven constraints in both formats, and
 * deleting or hollowing out the content behind any constraint is caught — with or without the
 * embedded marker.
 */
import { describe, expect, it } from 'vitest';
import { checkDocument, DesignConstraintError, type ConstraintId } from '../src/check/index.js';
import { buildDesign } from '../src/design/build-design.js';
import { renderHtml } from '../src/render/html.js';
import { renderMarkdown } from '../src/render/markdown.js';
import { FIXTURE_NAMES, fixture, GENERATED_AT } from './fixtures.js';

const constraints = (text: string, format: 'html' | 'md') => [...new Set(checkDocument(text, format).map((v) => v.constraint))].sort();

/** Removes one Markdown list item that starts with `**label:**` and mentions `action`. */
const dropMdItem = (md: string, label: string, action?: string) =>
  md.replace(new RegExp(`^- \\*\\*${label}:\\*\\* ${action ? `[^\\n]*${action}` : ''}[^\\n]*\\n`, 'm'), '');

describe.each(FIXTURE_NAMES)('generated document for %s', (name) => {
  it('meets all seven constraints as Markdown and as HTML', async () => {
    const model = buildDesign(fixture(name), { generatedAt: GENERATED_AT });
    expect(checkDocument(renderMarkdown(model), 'md')).toEqual([]);
    expect(checkDocument(await renderHtml(model), 'html')).toEqual([]);
  });
});

describe('checkDocument on damaged documents', () => {
  const model = buildDesign(fixture('express-postgres-stripe'), { generatedAt: GENERATED_AT });
  const md = renderMarkdown(model);
  let htmlText: string | undefined;
  const html = async () => (htmlText ??= await renderHtml(model));

  it('reports all seven constraints on an empty document', () => {
    expect(constraints('# Nothing here\n', 'md')).toEqual(['anti-pattern', 'concurrent-test', 'fingerprint-fields', 'key-expiry', 'lock-timeout', 'recovery-path', 'store-ddl']);
    expect(constraints('<html><body><main><h2>Nothing</h2></main></body></html>', 'html')).toHaveLength(7);
  });

  const cases: [string, ConstraintId, (text: string) => string][] = [
    ['a deleted recovery path', 'recovery-path', (t) => dropMdItem(t, 'Failure recovery path', 'stuck-record')],
    ['a recovery path reduced to “just retry”', 'recovery-path', (t) => t.replace(/(\*\*Failure recovery path:\*\* )[^\n]*/, '$1Just retry.')],
    ['DDL without its CHECK constraint', 'store-ddl', (t) => t.replace(/CHECK \(/g, 'NOCHECK (')],
    ['DDL removed', 'store-ddl', (t) => t.replace(/CREATE TABLE/g, 'CREATE VIEW')],
    // The per-action table's "Hashed fields" cells emptied: every action then lists no field.
    ['fingerprint tables and field lists emptied', 'fingerprint-fields', (t) => t.replace(/^(\| [A-Za-z0-9, ]+ \| )[^|\n]*(\| `\{)/gm, '$1 $2')],
    ['lock timeouts removed', 'lock-timeout', (t) => t.replace(/^- \*\*Lock timeout:\*\*[^\n]*\n/gm, '')],
    ['one action’s lock timeout without justification', 'lock-timeout', (t) => t.replace(/(- \*\*Lock timeout:\*\* [^\n]*placeOrder[^\n]*? \d+ s\.)[^\n]*/, '$1')],
    ['key expiry removed', 'key-expiry', (t) => t.replace(/^- \*\*Key expiry:\*\*[^\n]*\n/gm, '')],
    ['anti-pattern section removed', 'anti-pattern', (t) => t.replace(/## 9\\. Anti-patterns to avoid[\s\S]*?(?=<a id="monitoring">)/, '')],
    ['concurrent test case removed', 'concurrent-test', (t) => t.replace(/^\| Concurrent requests with same key \|[^\n]*\n/m, '')],
    ['concurrent test case without expectation', 'concurrent-test', (t) => t.replace(/^(\| Concurrent requests with same key \| [^|]*\|)[^\n]*/m, '$1 tbd | tbd |')],
  ];

  it.each(cases)('catches %s in Markdown', (_label, constraint, damage) => {
    const damaged = damage(md);
    expect(damaged).not.toBe(md);
    expect(constraints(damaged, 'md')).toEqual([constraint]);
  });

  it('catches an action whose whole analysis was deleted, thanks to the marker', () => {
    const damaged = md.replace(/<a id="action-stripewebhook"><\/a>[\s\S]*?(?=<a id="key-design">)/, '');
    const violations = checkDocument(damaged, 'md');
    expect(violations.map((v) => v.message)).toContain('Action stripeWebhook has no analysis subsection.');
  });

  it('still catches deleted content when the marker itself was deleted', () => {
    const withoutMarker = md.split('\n').slice(1).join('\n');
    expect(checkDocument(withoutMarker, 'md')).toEqual([]);
    expect(constraints(dropMdItem(withoutMarker, 'Failure recovery path', 'stuck-record'), 'md')).toEqual(['recovery-path']);
    const noAnalysis = withoutMarker.replace(/## 1\\. Action analysis[\s\S]*?(?=<a id="key-design">)/, '');
    expect(constraints(noAnalysis, 'md')).toContain('recovery-path');
  });

  it('catches the same damage in HTML', async () => {
    const text = await html();
    expect(constraints(text.replace(/<li><strong>Failure recovery path:<\/strong>[\s\S]*?<\/li>/, ''), 'html')).toEqual(['recovery-path']);
    expect(constraints(text.replace(/CHECK<\/span>/g, 'NOCHECK</span>').replace(/CHECK \(/g, 'NOCHECK ('), 'html')).toEqual(['store-ddl']);
    expect(constraints(text.replace(/<tr><td[^>]*>Concurrent requests with same key<\/td>[\s\S]*?<\/tr>/, ''), 'html')).toEqual(['concurrent-test']);
    expect(constraints(text.replace(/<section id="anti-patterns">[\s\S]*?<\/section>/, ''), 'html')).toEqual(['anti-pattern']);
    expect(constraints(text.replace(/<li><strong>Key expiry:<\/strong>[\s\S]*?<\/li>/g, ''), 'html')).toEqual(['key-expiry']);
    expect(constraints(text.replace(/<li><strong>Lock timeout:<\/strong>[\s\S]*?<\/li>/g, ''), 'html')).toEqual(['lock-timeout']);
  });

  it('explains every violation in the loud generation error', () => {
    const error = new DesignConstraintError(checkDocument('# empty\n', 'md'));
    expect(error.violations).toHaveLength(7);
    expect(error.message).toMatch(/violates 7 testable constraint\(s\):\n- recovery-path: /);
  });
});
