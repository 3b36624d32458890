/** Diagrams as Mermaid source, which GitHub, GitLab and most Markdown hosts render in place. */
import type { Diagram } from '../design/model.js';

/**
 * Mermaid labels cannot hold quotes, semicolons or pipes unescaped, and `#` starts a comment; keep
 * them plain. A state transition's label also ends at a second colon (its lexer reads `:[^:\n;]+`),
 * so there a colon becomes a dash.
 */
const label = (text: string) => text.replace(/["#;|]/g, ' ').replace(/\s+/g, ' ').trim();
const stateLabel = (text: string) => label(text.replace(/\s*:\s*/g, ' — '));
const id = (text: string) => text.replace(/[^A-Za-z0-9_]/g, '_');

/**
 * The Mermaid source of a diagram (stateDiagram-v2 or sequenceDiagram).
 * @example diagramMermaid({ type: 'states', states: [], transitions: [] }) // 'stateDiagram-v2\n…'
 */
export function diagramMermaid(diagram: Diagram): string {
  if (diagram.type === 'states') {
    const names = new Map(diagram.states.map((s) => [s.id, s.id === 'absent' || s.id === 'purged' ? '[*]' : id(s.id)]));
    const lines = ['stateDiagram-v2'];
    for (const s of diagram.states) if (s.id !== 'absent' && s.id !== 'purged' && s.label !== s.id) lines.push(`  state "${stateLabel(s.label)}" as ${id(s.id)}`);
    for (const t of diagram.transitions) lines.push(`  ${names.get(t.from) ?? id(t.from)} --> ${names.get(t.to) ?? id(t.to)}: ${stateLabel(t.label)}`);
    return lines.join('\n');
  }
  const lines = ['sequenceDiagram'];
  for (const p of diagram.participants) lines.push(`  participant ${id(p.id)} as ${label(p.label)}`);
  for (const step of diagram.steps) {
    if ('note' in step) lines.push(`  Note over ${id(step.over)}: ${label(step.note)}`);
    else lines.push(`  ${id(step.from)}${step.reply ? '-->>' : step.failed ? '-x' : '->>'}${id(step.to)}: ${label(step.label)}`);
  }
  return lines.join('\n');
}
