/** The document's stylesheet: inline in the HTML, readable on screen and on paper. */

export const STYLE = `
:root { --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; --soft: #f6f8fa; --accent: #0969da; --warn: #9a6700; --warn-bg: #fff8c5; --note-bg: #ddf4ff; --assume-bg: #fbefff; }
* { box-sizing: border-box; }
html { font-size: 16px; }
body { margin: 0; color: var(--ink); background: #fff; font: 1rem/1.6 -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; }
.page { max-width: 62rem; margin: 0 auto; padding: 2.5rem 1.5rem 4rem; }
header h1 { font-size: 2rem; line-height: 1.25; margin: 0 0 .25rem; }
header .subtitle { color: var(--muted); margin: 0 0 1.5rem; }
h2 { font-size: 1.5rem; margin: 2.75rem 0 .75rem; padding-bottom: .3rem; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.2rem; margin: 2rem 0 .5rem; }
h4 { font-size: 1.05rem; margin: 1.5rem 0 .5rem; }
h2, h3, h4 { scroll-margin-top: 1rem; }
p, ul, ol { margin: .6rem 0; }
li { margin: .25rem 0; }
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
/* break-word, not anywhere: identifiers in table cells keep their width instead of splitting mid-name. */
code { font: .875em/1.45 ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, monospace; background: var(--soft); padding: .1em .35em; border-radius: 4px; overflow-wrap: break-word; }
figure { margin: 1rem 0; }
figcaption { font-size: .85rem; color: var(--muted); margin-bottom: .3rem; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { margin: 0; padding: .9rem 1rem; border: 1px solid var(--line); border-radius: 6px; overflow-x: auto; font-size: .82rem; line-height: 1.5; }
pre code { background: none; padding: 0; font-size: inherit; overflow-wrap: normal; }
table { border-collapse: collapse; width: 100%; margin: 1rem 0; font-size: .92rem; display: block; overflow-x: auto; }
caption { caption-side: top; text-align: left; color: var(--muted); font-size: .85rem; padding-bottom: .3rem; }
th, td { border: 1px solid var(--line); padding: .45rem .65rem; vertical-align: top; text-align: left; }
th { background: var(--soft); font-weight: 600; }
tbody tr:nth-child(even) td { background: #fbfcfd; }
.callout { border-left: 4px solid var(--accent); background: var(--note-bg); padding: .6rem 1rem; margin: 1rem 0; border-radius: 0 6px 6px 0; }
.callout.warning { border-color: var(--warn); background: var(--warn-bg); }
.callout.assumption { border-color: #8250df; background: var(--assume-bg); }
.callout p { margin: 0 0 .3rem; font-weight: 600; }
.callout ul { margin: 0; }
nav.toc { background: var(--soft); border: 1px solid var(--line); border-radius: 6px; padding: .75rem 1.25rem; margin: 1rem 0 2rem; }
nav.toc h2 { font-size: 1.1rem; border: 0; margin: .25rem 0 .5rem; padding: 0; }
nav.toc ol { list-style: none; padding-left: 0; margin: .25rem 0; }
nav.toc ol ol { padding-left: 1.25rem; }
nav.toc ol ol { font-size: .92rem; }
footer { margin-top: 3rem; padding-top: 1rem; border-top: 1px solid var(--line); color: var(--muted); font-size: .85rem; }
@media print {
  html { font-size: 11pt; }
  .page { max-width: none; padding: 0; }
  nav.toc { break-after: page; }
  h2, h3, h4 { break-after: avoid; }
  pre, table, figure, .callout { break-inside: avoid; }
  pre { white-space: pre-wrap; overflow: visible; border-color: #999; }
  table { display: table; }
  a { color: inherit; }
  tbody tr:nth-child(even) td { background: none; }
}
`;
