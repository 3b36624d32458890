/**
 * The Markdown document's Mermaid blocks, checked line by line against Mermaid's own lexer rules
 * for the two diagram types the builder writes (stateDiagram-v2 and sequenceDiagram; token rules
 * as in mermaid's stateDiagram.jison and sequenceDiagram.jison): every line must be one statement
 * form the grammar accepts, with no character that ends or comments out a token, and every arrow
 * must join declared participants. It names the offending line; mermaid-render.test.ts renders the
 * same blocks with Mermaid itself in Chromium.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { answersSchema } from '../src/answers.js';
import { buildDesign } from '../src/design/build-design.js';
import { renderMarkdown } from '../src/render/markdown.js';
import { FIXTURE_NAMES, fixture, GENERATED_AT } from './fixtures.js';

// stateDiagram.jison: an ID is [^:\n\s\-\{]+, `[*]` is the edge state, a description is ":"[^:\n;]+
// (so a second colon ends it), `#` starts a comment anywhere on the line.
const STATE_ID = String.raw`(?:\[\*\]|[^:\s\-{#;]+)`;
const STATE_LINES = [
  new RegExp(String.raw`^  state "[^"\n]*" as [^\n{:#;]+$`),
  new RegExp(String.raw`^  (${STATE_ID}) --> (${STATE_ID})(?: ?:[^:\n;#]+)?$`),
];
// sequenceDiagram.jison: an actor is [^\+\->:\n,;]+, a message text is ":"[^#\n;]+, an alias the rest of the line up to # or ;.
const ACTOR = String.raw`[^+\->:\n,;#\s]+`;
const PARTICIPANT = new RegExp(String.raw`^  participant (${ACTOR}) as [^#\n;]+$`);
const MESSAGE = new RegExp(String.raw`^  (${ACTOR})(->>|-->>|->|-->|-x|--x|-\)|--\))(${ACTOR}): ?[^#\n;]+$`);
const NOTE = new RegExp(String.raw`^  Note (?:over|left of|right of) (${ACTOR})(?:, ?(${ACTOR}))?: ?[^#\n;]+$`);

/** Every problem of one block, as `line: text`; empty when Mermaid's grammar accepts all of it. */
export function mermaidProblems(block: string): string[] {
  const [head, ...lines] = block.split('\n');
  const problems: string[] = [];
  if (head === 'stateDiagram-v2') {
    for (const line of lines) if (!STATE_LINES.some((rule) => rule.test(line))) problems.push(line);
    return problems;
  }
  if (head !== 'sequenceDiagram') return [`unknown diagram type: ${head ?? ''}`];
  const declared = new Set<string>();
  for (const line of lines) {
    const participant = PARTICIPANT.exec(line);
    const message = MESSAGE.exec(line);
    const note = NOTE.exec(line);
    if (participant) declared.add(participant[1] as string);
    else if (message) {
      for (const actor of [message[1], message[3]]) if (!declared.has(actor as string)) problems.push(`${line} (undeclared ${actor})`);
    } else if (note) {
      if (!declared.has(note[1] as string)) problems.push(`${line} (undeclared ${note[1]})`);
    } else problems.push(line);
  }
  return problems;
}

const blocks = (md: string) => [...md.matchAll(/```mermaid\n([\s\S]*?)\n```/g)].map((m) => m[1] as string);
const marketplace = answersSchema.parse(JSON.parse(readFileSync(join(import.meta.dirname, 'answers', 'marketplace-12-actions.json'), 'utf8')));

describe('Mermaid blocks in the Markdown document', () => {
  it.each([...FIXTURE_NAMES, 'marketplace-12-actions'] as const)('%s: every block is what Mermaid’s grammar accepts', (name) => {
    const answers = name === 'marketplace-12-actions' ? marketplace : fixture(name);
    const found = blocks(renderMarkdown(buildDesign(answers, { generatedAt: GENERATED_AT })));
    // The record's state machine and the claim sequence always; a saga adds its own state machine.
    expect(found.length).toBeGreaterThanOrEqual(2);
    for (const block of found) expect(mermaidProblems(block), block).toEqual([]);
  });

  it('rejects what Mermaid would not parse: a second colon in a transition, an undeclared actor, a comment mark', () => {
    expect(mermaidProblems('stateDiagram-v2\n  [*] --> PROCESSING: claim: v = store clock ms')).toHaveLength(1);
    expect(mermaidProblems('sequenceDiagram\n  participant A as Worker A\n  A->>S: claim')).toHaveLength(1);
    expect(mermaidProblems('stateDiagram-v2\n  A --> B: step #2')).toHaveLength(1);
    expect(mermaidProblems('stateDiagram-v2\n  [*] --> PROCESSING: claim — v = store clock ms')).toEqual([]);
  });
});
