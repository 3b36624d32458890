/**
 * The design model: one plain-data description of the idempotency design document. Every
 * renderer (Markdown, HTML) and the constraint check read this shape and nothing else.
 */

/** A run of inline content. Plain `text` is always escaped by renderers; nothing is raw markup. */
export type Inline =
  | { readonly text: string }
  | { readonly code: string }
  | { readonly strong: string }
  | { readonly link: { readonly text: string; readonly target: string } };

export type CodeLanguage =
  | 'sql'
  | 'typescript'
  | 'javascript'
  | 'python'
  | 'go'
  | 'java'
  | 'lua'
  | 'json'
  | 'yaml'
  | 'bash'
  | 'text';

/** A state machine: states on a grid (column, row), transitions between them. */
export interface StateDiagram {
  readonly type: 'states';
  readonly states: readonly { readonly id: string; readonly label: string; readonly col: number; readonly row: number; readonly terminal?: boolean }[];
  readonly transitions: readonly { readonly from: string; readonly to: string; readonly label: string }[];
}

/** A sequence: participants left to right, then messages and notes top to bottom. */
export interface SequenceDiagram {
  readonly type: 'sequence';
  readonly participants: readonly { readonly id: string; readonly label: string }[];
  readonly steps: readonly (
    | { readonly from: string; readonly to: string; readonly label: string; readonly reply?: boolean; readonly failed?: boolean }
    | { readonly note: string; readonly over: string }
  )[];
}

export type Diagram = StateDiagram | SequenceDiagram;

/**
 * Blocks: `collapsed` marks reference material (a full statement, a procedure, an error table)
 * that renderers fold behind that summary text (`<details>`), so the document reads short while
 * every artifact stays in it. Long code blocks fold even without it.
 */
export type Block =
  | { readonly kind: 'diagram'; readonly title: string; readonly diagram: Diagram }
  | { readonly kind: 'paragraph'; readonly content: readonly Inline[] }
  | { readonly kind: 'list'; readonly ordered: boolean; readonly items: readonly (readonly Inline[])[]; readonly collapsed?: string }
  | {
      readonly kind: 'table';
      readonly caption?: string;
      readonly columns: readonly string[];
      readonly rows: readonly (readonly (readonly Inline[])[])[];
      readonly collapsed?: string;
    }
  | { readonly kind: 'code'; readonly language: CodeLanguage; readonly code: string; readonly title?: string; readonly collapsed?: string }
  | {
      readonly kind: 'callout';
      readonly tone: 'note' | 'warning' | 'assumption';
      readonly title: string;
      readonly items: readonly (readonly Inline[])[];
    };

export interface Section {
  /** Stable anchor id: lowercase letters, digits and dashes. */
  readonly id: string;
  /** Heading text, numbered where the spec numbers it (e.g. `4. Concurrency control`). */
  readonly title: string;
  readonly blocks: readonly Block[];
  readonly children: readonly Section[];
}

/** A code artifact: a real file for the user's project, also embedded in the document. */
export interface Artifact {
  /** Path relative to the code directory, with forward slashes. */
  readonly path: string;
  readonly language: CodeLanguage | 'markdown';
  readonly content: string;
  /** One line: what the file is for. */
  readonly purpose: string;
}

/** Machine-readable facts embedded in the rendered document, read back by `checkDocument`. */
export interface DesignMeta {
  readonly version: 1;
  readonly actions: readonly string[];
  readonly database: string;
  readonly language: string;
  readonly agnostic: boolean;
}

export interface KeyDecision {
  readonly label: string;
  readonly value: string;
}

export interface DesignModel {
  readonly title: string;
  readonly subtitle: string;
  /** ISO 8601 timestamp of generation, shown in the footer. */
  readonly generatedAt: string;
  readonly meta: DesignMeta;
  /** The short summary of key decisions (also printed at the end of a CLI run). */
  readonly decisions: readonly KeyDecision[];
  readonly sections: readonly Section[];
  readonly artifacts: readonly Artifact[];
}
