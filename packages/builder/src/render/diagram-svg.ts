/**
 * Diagrams as inline SVG: no external asset, colours from CSS custom properties (so the dark theme
 * and print apply), every label escaped, a <title> for screen readers.
 */
import type { Diagram, SequenceDiagram, StateDiagram } from '../design/model.js';

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const BOX_W = 150;
const BOX_H = 40;
const GAP_X = 170;
const GAP_Y = 90;
const PAD = 24;

/** Wraps a label into lines of at most `width` characters (SVG text does not wrap by itself). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && `${line} ${word}`.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

function textLines(x: number, y: number, lines: readonly string[], cls: string, anchor = 'middle'): string {
  return `<text x="${x}" y="${y}" class="${cls}" text-anchor="${anchor}">${lines.map((l, i) => `<tspan x="${x}" dy="${i === 0 ? 0 : 14}">${esc(l)}</tspan>`).join('')}</text>`;
}

const ARROW = '<defs><marker id="ah" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="d-head"/></marker></defs>';

function states(d: StateDiagram, title: string): string {
  const cols = Math.max(...d.states.map((s) => s.col)) + 1;
  const rows = Math.max(...d.states.map((s) => s.row)) + 1;
  const width = PAD * 2 + cols * BOX_W + (cols - 1) * GAP_X;
  const height = PAD * 2 + rows * BOX_H + (rows - 1) * GAP_Y + 30;
  const at = new Map(d.states.map((s) => [s.id, { x: PAD + s.col * (BOX_W + GAP_X), y: PAD + 30 + s.row * (BOX_H + GAP_Y) }]));
  const edges = d.transitions.map((t, i) => {
    const a = at.get(t.from);
    const b = at.get(t.to);
    if (!a || !b) return '';
    if (t.from === t.to) {
      const x = a.x + BOX_W / 2;
      return `<path d="M${x - 30},${a.y} C${x - 40},${a.y - 34} ${x + 40},${a.y - 34} ${x + 30},${a.y}" class="d-edge" marker-end="url(#ah)"/>${textLines(x, a.y - 32, [t.label], 'd-label')}`;
    }
    const reverse = d.transitions.some((o) => o.from === t.to && o.to === t.from);
    const [ax, ay, bx, by] = [a.x + BOX_W / 2, a.y + BOX_H / 2, b.x + BOX_W / 2, b.y + BOX_H / 2];
    // Clip the line at the boxes' borders so arrowheads stay visible.
    const clip = (x: number, y: number, dx: number, dy: number) => {
      const s = Math.min(Math.abs(dx) > 0 ? BOX_W / 2 / Math.abs(dx) : Infinity, Math.abs(dy) > 0 ? BOX_H / 2 / Math.abs(dy) : Infinity);
      return [x + dx * s, y + dy * s] as const;
    };
    const [sx, sy] = clip(ax, ay, bx - ax, by - ay);
    const [ex, ey] = clip(bx, by, ax - bx, ay - by);
    // A two-way pair: each edge shifts to its own right-hand side, its label further out on that side.
    const off = reverse ? 8 : 0;
    const length = Math.hypot(ex - sx, ey - sy) || 1;
    const nx = -(ey - sy) / length;
    const ny = (ex - sx) / length;
    const lines = wrap(t.label, 24);
    const push = reverse ? 12 + (lines.length - 1) * 14 : 12;
    const [mx, my] = [(sx + ex) / 2 + nx * (off + push), (sy + ey) / 2 + ny * (off + push) + (Math.abs(ny) > 0.5 && ny < 0 ? -((lines.length - 1) * 14) : 0) + 4];
    return `<line x1="${sx + nx * off}" y1="${sy + ny * off}" x2="${ex + nx * off}" y2="${ey + ny * off}" class="d-edge" marker-end="url(#ah)" data-i="${i}"/>${textLines(mx, my, lines, 'd-label')}`;
  });
  const boxes = d.states.map((s) => {
    const p = at.get(s.id) as { x: number; y: number };
    return `<rect x="${p.x}" y="${p.y}" width="${BOX_W}" height="${BOX_H}" rx="${s.terminal ? 20 : 6}" class="d-box${s.terminal ? ' d-terminal' : ''}"/>${textLines(p.x + BOX_W / 2, p.y + BOX_H / 2 + 4, [s.label], 'd-state')}`;
  });
  return svg(width, height, title, `${edges.join('')}${boxes.join('')}`);
}

function sequence(d: SequenceDiagram, title: string): string {
  const colW = 220;
  const rowH = 44;
  const width = PAD * 2 + d.participants.length * colW;
  const height = PAD * 2 + 40 + d.steps.length * rowH + 10;
  const x = new Map(d.participants.map((p, i) => [p.id, PAD + colW / 2 + i * colW]));
  const heads = d.participants.map((p) => {
    const cx = x.get(p.id) as number;
    return `<rect x="${cx - 80}" y="${PAD}" width="160" height="30" rx="6" class="d-box"/>${textLines(cx, PAD + 20, [p.label], 'd-state')}<line x1="${cx}" y1="${PAD + 30}" x2="${cx}" y2="${height - PAD}" class="d-life"/>`;
  });
  const steps = d.steps.map((step, i) => {
    const y = PAD + 40 + i * rowH + rowH / 2;
    if ('note' in step) {
      const cx = x.get(step.over) as number;
      const lines = wrap(step.note, 46);
      return `<rect x="${cx - 150}" y="${y - 14}" width="300" height="${18 + (lines.length - 1) * 14}" rx="4" class="d-note"/>${textLines(cx, y, lines, 'd-label')}`;
    }
    const [x1, x2] = [x.get(step.from) as number, x.get(step.to) as number];
    const dir = Math.sign(x2 - x1) || 1;
    const cls = `d-edge${step.reply ? ' d-reply' : ''}${step.failed ? ' d-failed' : ''}`;
    return `<line x1="${x1}" y1="${y + 6}" x2="${x2 - dir * 2}" y2="${y + 6}" class="${cls}" marker-end="url(#ah)"/>${textLines((x1 + x2) / 2, y, [step.label], 'd-label')}`;
  });
  return svg(width, height, title, `${heads.join('')}${steps.join('')}`);
}

function svg(width: number, height: number, title: string, body: string): string {
  return `<svg class="diagram" viewBox="0 0 ${Math.ceil(width)} ${Math.ceil(height)}" width="${Math.ceil(width)}" role="img" aria-label="${esc(title)}"><title>${esc(title)}</title>${ARROW}${body}</svg>`;
}

/**
 * A diagram as one inline SVG element.
 * @example diagramSvg({ type: 'states', states: [{ id: 'a', label: 'absent', col: 0, row: 0 }], transitions: [] }, 'Record')
 */
export function diagramSvg(diagram: Diagram, title: string): string {
  return diagram.type === 'states' ? states(diagram, title) : sequence(diagram, title);
}
