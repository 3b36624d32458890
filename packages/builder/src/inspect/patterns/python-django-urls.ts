/**
 * Django `urls.py` as route facts: `path`/`re_path`/`url` to a view function or to a class's
 * `as_view(...)`, `include("app.urls")` (also the namespaced `include(("app.urls", "ns"))`), inline
 * `include([...])` lists whose patterns sit below the include's prefix, DRF `router.register(...)`
 * below the prefix its `include(router.urls)` is given.
 * The views' own methods are found in python.ts; the route graph joins the two.
 */
import { formatLocation } from '../location.js';
import type { RouteFacts } from '../route-graph.js';
import { isCloser, scanTopLevel } from '../text-scan.js';
import { matchesWithLines } from './line-patterns.js';

/**
 * A urls.py pattern as a route: `re_path`/`url` anchors and an optional trailing slash (`/?$`)
 * dropped (the path is served without it), named groups shown as parameters like `path`'s
 * converters, so the regex syntax never reaches the printed path.
 * @example djangoRoute('^captures/(?P<pk>[0-9]+)/?$') // 'captures/{pk}'
 */
export function djangoRoute(pattern: string): string {
  return pattern.replace(/^\^|\$$/g, '').replace(/\/\?$/, '').replace(/\(\?P<(\w+)>(?:[^()\\]|\\.|\([^()]*\))*\)/g, '{$1}');
}

/** `path("x/", …`, `re_path(r"^x/$", …` and the older `url(r"^x/$", …`, capturing the pattern; `rest` follows the comma. */
const patternCall = (rest: string): RegExp => new RegExp(String.raw`\b(?:re_path|path|url)\(\s*r?["']([^"']*)["']\s*,\s*` + rest, 'g');

interface InlineList {
  readonly start: number;
  readonly end: number;
  readonly prefix: string;
}

/** `path("upload/", include([ … ]))` (or `include(([ … ], "ns"))`): where each list stands and its prefix. */
function inlineLists(text: string): InlineList[] {
  // Comments blanked (same length) so an apostrophe in one does not open a string for the scan.
  const code = text.replace(/(^|[ \t])#[^\n]*/gm, (comment) => ' '.repeat(comment.length));
  return matchesWithLines(code, patternCall(String.raw`include\(\s*\(?\s*\[`)).map(({ match, index }) => {
    const start = index + match[0].length;
    return { start, end: scanTopLevel(code, start, isCloser), prefix: djangoRoute(match[1] ?? '') };
  });
}

/** The prefixes of the inline lists around `offset`, outermost first, as Django joins them. */
function listPrefix(lists: readonly InlineList[], offset: number): string {
  return lists.filter((list) => list.start <= offset && offset < list.end).sort((a, b) => a.start - b.start).map((list) => list.prefix).join('');
}

/** Routers built here with `trailing_slash=False` or `trailing_slash="/?"` (an optional slash: the path is shown without it). */
function routersWithoutTrailingSlash(text: string): Set<string> {
  const out = new Set<string>();
  for (const { match } of matchesWithLines(text, /^[ \t]*(\w+)\s*=\s*[\w.]*Router\(([^)]*)\)/gm)) {
    if (/trailing_slash\s*=\s*(?:False|r?["']\/\?["'])/.test(match[2] ?? '')) out.add(match[1] ?? '');
  }
  return out;
}

const viewNode = (target: string): string => `django:view:${target.slice(target.lastIndexOf('.') + 1)}`;

/**
 * Adds the mounts of one urls.py (or any file with `urlpatterns` / `.register(`) to `facts`.
 * @example djangoUrlFacts('shop/urls.py', 'urlpatterns = [path("refunds/", views.RefundView.as_view())]', facts) // mounts django:view:RefundView at refunds/
 */
export function djangoUrlFacts(relPath: string, text: string, facts: RouteFacts): void {
  if (!/urlpatterns|\.register\(/.test(text)) return;
  const self = `${relPath}#@urls`;
  const lists = inlineLists(text);
  for (const { match, line, index } of matchesWithLines(text, patternCall(String.raw`([\w.]+)`))) {
    // `views.RefundView.as_view(...)` routes the class: the capture also takes `.as_view`, which names no view.
    const target = (match[2] ?? '').replace(/\.as_view$/, '');
    if (target === 'include') continue;
    facts.mounts.push({ parent: self, child: viewNode(target), prefix: listPrefix(lists, index) + djangoRoute(match[1] ?? ''), location: formatLocation(relPath, line) });
  }
  for (const { match, line, index } of matchesWithLines(text, patternCall(String.raw`include\(\s*\(?\s*["']([\w.]+)["']`))) {
    const module = (match[2] ?? '').replace(/\./g, '/');
    const prefix = listPrefix(lists, index) + djangoRoute(match[1] ?? '');
    facts.mounts.push({ parent: self, child: { modules: [`${module}.py`, `${module}/__init__.py`], name: '@urls' }, prefix, location: formatLocation(relPath, line) });
  }
  // `path("api/", include(router.urls))`: that router's registrations sit below the include's prefix.
  const routers = new Map<string, string[]>();
  for (const { match, index } of matchesWithLines(text, patternCall(String.raw`include\(\s*\(?\s*(\w+)\.urls\b`))) {
    routers.set(match[2] ?? '', [...(routers.get(match[2] ?? '') ?? []), listPrefix(lists, index) + djangoRoute(match[1] ?? '')]);
  }
  const unslashed = routersWithoutTrailingSlash(text);
  for (const { match, line } of matchesWithLines(text, /\b(\w+)\.register\(\s*r?["']([^"']*)["']\s*,\s*([\w.]+)/g)) {
    // DRF routers end every route with `/` unless built with `trailing_slash=False` (or the optional
    // `'/?'`): `//` tells joinRoute so, whatever detail or action route the view adds below.
    const slash = unslashed.has(match[1] ?? '') ? '' : '//';
    // A router not included by a path here (`urlpatterns += router.urls`) serves at this file's own mount.
    for (const prefix of routers.get(match[1] ?? '') ?? ['']) {
      facts.mounts.push({ parent: self, child: viewNode(match[3] ?? ''), prefix: prefix + (match[2] ?? '') + slash, location: formatLocation(relPath, line) });
    }
  }
}
