/** The document's stylesheet: inline in the HTML; light and dark, wide and narrow, screen and paper. */

export const STYLE = `
:root { color-scheme: light dark; --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; --soft: #f6f8fa; --bg: #fff; --zebra: #fbfcfd; --accent: #0969da; --warn: #9a6700; --warn-bg: #fff8c5; --note-bg: #ddf4ff; --assume: #8250df; --assume-bg: #fbefff; --fail: #cf222e; }
@media screen and (prefers-color-scheme: dark) {
  :root { --ink: #e6edf3; --muted: #9198a1; --line: #3d444d; --soft: #151b23; --bg: #0d1117; --zebra: #111720; --accent: #4493f8; --warn: #d29922; --warn-bg: #272115; --note-bg: #121d2f; --assume: #ab7df8; --assume-bg: #1f1830; --fail: #f85149; }
  .shiki, .shiki span { color: var(--shiki-dark) !important; background-color: var(--shiki-dark-bg) !important; }
}
* { box-sizing: border-box; }
html { font-size: 16px; scroll-padding-top: 1rem; }
body { margin: 0; color: var(--ink); background: var(--bg); font: 1rem/1.6 -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; }
.skip { position: absolute; left: -999px; top: 0; background: var(--bg); padding: .5rem 1rem; z-index: 2; }
.skip:focus { left: 1rem; }
.layout { max-width: 90rem; margin: 0 auto; }
.page { max-width: 60rem; margin: 0 auto; padding: 1.5rem 1.25rem 4rem; min-width: 0; }
header h1 { font-size: 2rem; line-height: 1.25; margin: 0 0 .25rem; }
header .subtitle { color: var(--muted); margin: 0 0 1rem; }
h2 { font-size: 1.5rem; margin: 2.25rem 0 .6rem; padding-bottom: .3rem; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.2rem; margin: 1.5rem 0 .4rem; }
h4 { font-size: 1.05rem; margin: 1.25rem 0 .5rem; }
h2, h3, h4 { scroll-margin-top: 1rem; overflow-wrap: anywhere; }
.anchor { margin-left: .4rem; color: var(--muted); opacity: 0; text-decoration: none; }
.anchor::after { content: "#"; }
h2:hover .anchor, h3:hover .anchor, h4:hover .anchor, .anchor:focus { opacity: 1; }
p, ul, ol { margin: .5rem 0; }
li { margin: .2rem 0; }
a { color: var(--accent); }
a:not(:hover) { text-decoration: none; }
main a:not(.anchor) { text-decoration: underline; text-decoration-thickness: 1px; text-underline-offset: 2px; }
/* break-word, not anywhere: identifiers in table cells keep their width instead of splitting mid-name. */
code { font: .875em/1.45 ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, monospace; background: var(--soft); padding: .1em .35em; border-radius: 4px; overflow-wrap: break-word; }
figure { margin: 1rem 0; position: relative; }
figcaption { font-size: .85rem; color: var(--muted); margin-bottom: .3rem; padding-right: 4.5rem; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
pre { margin: 0; padding: .9rem 1rem; border: 1px solid var(--line); border-radius: 6px; overflow-x: auto; font-size: .82rem; line-height: 1.5; max-height: 24rem; }
pre code { background: none; padding: 0; font-size: inherit; overflow-wrap: normal; }
.copy { position: absolute; top: 0; right: 0; font: .75rem/1 inherit; padding: .3rem .6rem; border: 1px solid var(--line); border-radius: 4px; background: var(--soft); color: var(--ink); cursor: pointer; }
.copy:hover, .copy:focus { border-color: var(--accent); }
.table-wrap { overflow-x: auto; margin: 1rem 0; max-width: 100%; }
.table-wrap:focus { outline: 2px solid var(--accent); outline-offset: 2px; }
table { border-collapse: collapse; width: 100%; font-size: .92rem; }
caption { caption-side: top; text-align: left; color: var(--muted); font-size: .85rem; padding-bottom: .3rem; }
th, td { border: 1px solid var(--line); padding: .45rem .65rem; vertical-align: top; text-align: left; min-width: 7rem; }
th { background: var(--soft); font-weight: 600; }
tbody tr:nth-child(even) td { background: var(--zebra); }
.callout { border-left: 4px solid var(--accent); background: var(--note-bg); padding: .6rem 1rem; margin: 1rem 0; border-radius: 0 6px 6px 0; }
.callout.warning { border-color: var(--warn); background: var(--warn-bg); }
.callout.assumption { border-color: var(--assume); background: var(--assume-bg); }
.callout p { margin: 0 0 .3rem; font-weight: 600; }
.callout ul { margin: 0; }
/* The first screen holds the whole summary (what runs twice, risks, decisions, this week): denser tables there. */
#summary > h2 { margin-top: .75rem; }
#summary .table-wrap { margin: .5rem 0; }
#summary table { font-size: .86rem; line-height: 1.4; }
#summary th, #summary td { padding: .22rem .55rem; }
#summary ol { margin: .25rem 0; }
#summary li { margin: .1rem 0; }
/* Wide screens: risks and this week's steps on the left, the decisions beside them (block order is fixed by the overview section). */
@media screen and (min-width: 1100px) {
  #summary { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); column-gap: 1.25rem; align-items: start; }
  #summary > * { grid-column: 1 / -1; }
  #summary > .table-wrap:nth-of-type(1), #summary > p:nth-of-type(2), #summary > ol { grid-column: 1; }
  #summary > .table-wrap:nth-of-type(2) { grid-column: 2; grid-row: 3 / span 3; margin-top: .5rem; }
}
/* Reference material (full statements, procedures, the error table) folds behind a one-line summary. */
main details { margin: .5rem 0; }
main details > summary { cursor: pointer; color: var(--accent); font-size: .9rem; padding: .15rem 0; width: max-content; max-width: 100%; }
main details[open] > summary { margin-bottom: .3rem; }
.diagram-wrap { overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; padding: .5rem; }
svg.diagram { display: block; max-width: 100%; height: auto; margin: 0 auto; font: 12px/1.2 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; }
.d-box { fill: var(--soft); stroke: var(--ink); stroke-width: 1.2; }
.d-terminal { stroke-dasharray: 4 3; }
.d-edge { stroke: var(--ink); stroke-width: 1.3; fill: none; }
.d-reply { stroke-dasharray: 5 4; }
.d-failed { stroke: var(--fail); }
.d-head { fill: var(--ink); }
.d-life { stroke: var(--line); stroke-width: 1.2; stroke-dasharray: 3 4; }
.d-note { fill: var(--warn-bg); stroke: var(--warn); }
.d-state { fill: var(--ink); font-weight: 600; }
.d-label { fill: var(--ink); paint-order: stroke; stroke: var(--bg); stroke-width: 3px; stroke-linejoin: round; }
nav.toc { font-size: .9rem; padding: .75rem 1.25rem 0; }
nav.toc summary { font-weight: 600; cursor: pointer; padding: .4rem 0; }
nav.toc ol { list-style: none; padding-left: 0; margin: .25rem 0; }
nav.toc ol ol { padding-left: 1rem; font-size: .88rem; }
nav.toc li { margin: .1rem 0; }
nav.toc a { display: block; padding: .12rem .5rem; border-left: 2px solid transparent; color: var(--ink); overflow-wrap: anywhere; }
nav.toc a:hover { color: var(--accent); }
nav.toc a.current { border-left-color: var(--accent); color: var(--accent); font-weight: 600; }
/* On a phone each row becomes a card of label/value pairs: nothing is squeezed into a sliver of a column. */
@media screen and (max-width: 700px) {
  .table-wrap table, .table-wrap tbody, .table-wrap tr, .table-wrap td { display: block; width: 100%; }
  .table-wrap caption { display: block; }
  .table-wrap thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  .table-wrap tr { border: 1px solid var(--line); border-radius: 6px; margin-bottom: .6rem; }
  .table-wrap td { border: 0; border-top: 1px solid var(--line); min-width: 0; }
  .table-wrap td:first-child { border-top: 0; font-weight: 600; }
  .table-wrap td::before { content: attr(data-label); display: block; font-size: .75rem; font-weight: 600; color: var(--muted); }
  tbody tr:nth-child(even) td { background: none; }
}
@media (max-width: 1099px) {
  nav.toc { position: sticky; top: 0; z-index: 1; background: var(--bg); border-bottom: 1px solid var(--line); max-height: 100vh; overflow-y: auto; }
}
@media (min-width: 1100px) {
  .layout { display: grid; grid-template-columns: 18rem minmax(0, 1fr); }
  nav.toc { position: sticky; top: 0; align-self: start; max-height: 100vh; overflow-y: auto; border-right: 1px solid var(--line); padding-bottom: 2rem; }
  nav.toc summary { pointer-events: none; list-style: none; }
  nav.toc summary::-webkit-details-marker { display: none; }
}
footer { margin-top: 3rem; padding-top: 1rem; border-top: 1px solid var(--line); color: var(--muted); font-size: .85rem; }
@media print {
  :root { --ink: #000; --muted: #444; --line: #999; --soft: #f3f3f3; --bg: #fff; --zebra: #fff; }
  html { font-size: 10.5pt; }
  .layout { display: block; max-width: none; }
  .page { max-width: none; padding: 0; }
  nav.toc, .copy, .skip, .anchor { display: none; }
  h2, h3, h4 { break-after: avoid; }
  table, figure, .callout, tr { break-inside: avoid; }
  pre { white-space: pre-wrap; overflow: visible; max-height: none; border-color: #999; }
  .table-wrap, .diagram-wrap { overflow: visible; }
  /* Paper cannot be clicked open: every folded block prints. */
  main details::details-content { content-visibility: visible; display: block; }
  main details > summary { display: none; }
  a { color: inherit; text-decoration: none; }
}
`;
