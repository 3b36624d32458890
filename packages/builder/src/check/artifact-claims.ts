/**
 * The truth check: a design document read against the artifacts written beside it and the
 * runtime's own definitions. A claim without its artifact, or an artifact that contradicts the
 * document, is a violation with the document line where the claim stands.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DEFAULT_PROBLEM_TYPE_BASE, PROBLEMS, problemStatus, type ProblemCode } from '@idempotency-builder/runtime/contract';
import { runtimeKeyRule } from '../design/sections/key-rules.js';
import { formatMs } from '../design/plan/durations.js';
import { htmlTree, markdownTree, type DocBlock, type DocSection } from './document-tree.js';
import { serverActionViolations } from './server-action-claims.js';

export type TruthCheck = 'artifact-missing' | 'artifact-differs' | 'statement' | 'policy' | 'problem' | 'encryption' | 'key-validation' | 'transactional' | 'koa' | 'server-action';

export interface TruthViolation {
  readonly check: TruthCheck;
  /** 1-based line of the document where the claim stands (0 when it cannot be located). */
  readonly line: number;
  readonly message: string;
}

const flatten = (sections: readonly DocSection[]): DocBlock[] => sections.flatMap((s) => [...s.blocks, ...flatten(s.children)]);
const normalise = (text: string) => text.replace(/\s+/g, ' ').trim();
const trimLines = (text: string) => text.split('\n').map((line) => line.trimEnd()).join('\n').trim();
const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** The line of the first occurrence of `needle` (or of a shorter prefix of it) in the raw document. */
function lineOf(raw: string, needle: string): number {
  // Inline markup splits the rendered text, so try windows along the needle until one is found verbatim.
  for (let start = 0; start < Math.max(1, needle.length - 12); start += 8) {
    for (const length of [80, 40, 20]) {
      const part = needle.slice(start, start + length);
      if (part.length < 12 && start > 0) continue;
      for (const candidate of [part, escapeHtml(part)]) {
        const at = part.length >= 4 ? raw.indexOf(candidate) : -1;
        if (at >= 0) return raw.slice(0, at).split('\n').length;
      }
    }
  }
  return 0;
}

/** Every file under `dir`, as forward-slash paths relative to it (bounded depth: generated trees are shallow). */
function listFiles(dir: string, prefix = '', depth = 0): string[] {
  if (depth > 4 || !existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path, `${prefix}${name}/`, depth + 1) : [`${prefix}${name}`];
  });
}

/** The artifact paths the document's file table lists (header `File | Purpose`). */
export function listedArtifacts(blocks: readonly DocBlock[]): string[] {
  const out: string[] = [];
  let inFiles = false;
  for (const block of blocks) {
    if (block.kind !== 'row') continue;
    if (block.header) inFiles = /^file$/i.test(block.cells[0] ?? '') && /^purpose$/i.test(block.cells[1] ?? '');
    else if (inFiles && block.cells[0]) out.push(block.cells[0]);
  }
  return out;
}

/**
 * The code directory beside a document: the folder near it that holds most of the files the
 * document lists (the design command's default `<repo>/idempotency`, or a `--code` sibling).
 * @example findCodeDir('/srv/api/docs/idempotency-design.html', text, 'html') // '/srv/api/idempotency'
 */
export function findCodeDir(documentPath: string, text: string, format: 'html' | 'md'): string | undefined {
  const listed = listedArtifacts(flatten((format === 'html' ? htmlTree(text) : markdownTree(text)).sections));
  if (listed.length === 0) return undefined;
  const roots = [dirname(documentPath), dirname(dirname(documentPath))];
  const candidates = roots.flatMap((root) => (existsSync(root) ? [root, ...readdirSync(root).map((name) => join(root, name)).filter((p) => statSync(p).isDirectory())] : []));
  let best: { dir: string; hits: number } | undefined;
  for (const dir of candidates) {
    const hits = listed.filter((path) => existsSync(join(dir, path))).length;
    if (hits > 0 && (!best || hits > best.hits)) best = { dir, hits };
  }
  return best?.dir;
}

interface Policies {
  readonly leaseMs: Map<string, number>;
  readonly ttlMs: Map<string, number>;
  readonly typeBase: string;
  readonly profile: 'spec' | 'ietf';
}

/** Lease and expiry per action as the generated code sets them: TypeScript `POLICIES`, or project.json. */
function readPolicies(codeDir: string, files: readonly string[]): Policies {
  const leaseMs = new Map<string, number>();
  const ttlMs = new Map<string, number>();
  let typeBase = DEFAULT_PROBLEM_TYPE_BASE;
  let profile: 'spec' | 'ietf' = 'spec';
  for (const file of files) {
    const text = readFileSync(join(codeDir, file), 'utf8');
    if (/(^|\/)project\.json$/.test(file)) {
      const data = JSON.parse(text) as { actions?: Record<string, { leaseMs?: number; ttlMs?: number }>; problemTypeBase?: string };
      for (const [name, action] of Object.entries(data.actions ?? {})) {
        if (typeof action.leaseMs === 'number') leaseMs.set(name, action.leaseMs);
        if (typeof action.ttlMs === 'number') ttlMs.set(name, action.ttlMs);
      }
      if (data.problemTypeBase) typeBase = data.problemTypeBase;
    } else if (/\.(ts|js)$/.test(file)) {
      for (const m of text.matchAll(/^\s*(?:["']?)([A-Za-z][A-Za-z0-9]*)["']?\s*:\s*\{\s*leaseMs:\s*([\d_]+),\s*ttlMs:\s*([\d_]+)\s*\}/gm)) {
        leaseMs.set(m[1] as string, Number((m[2] as string).replace(/_/g, '')));
        ttlMs.set(m[1] as string, Number((m[3] as string).replace(/_/g, '')));
      }
      const base = /problemTypeBase:\s*['"]([^'"]+)['"]/.exec(text);
      if (base) typeBase = base[1] as string;
      if (/profile:\s*['"]ietf['"]/.test(text)) profile = 'ietf';
    }
  }
  return { leaseMs, ttlMs, typeBase, profile };
}

const DURATION = /(\d+(?:\.\d+)?\s(?:ms|s|min|h|days?))\b/;

/** `a, b and c 15 s` → [[a, b, c], '15 s'] for each `;`-separated part; `15 s for all 12 actions` → every action. */
function statedDurations(text: string, actions: readonly string[]): [string[], string][] {
  return text.split(';').flatMap((part): [string[], string][] => {
    const duration = DURATION.exec(part)?.[1];
    if (!duration) return [];
    const before = part.slice(0, part.indexOf(duration));
    if (/for all \d+ actions/.test(part) && before.trim() === '') return [[[...actions], duration]];
    const names = actions.filter((name) => new RegExp(`(^|[^A-Za-z0-9])${name}([^A-Za-z0-9]|$)`).test(before));
    return names.length > 0 ? [[names, duration]] : [];
  });
}

function policyViolations(blocks: readonly DocBlock[], actions: readonly string[], policies: Policies, raw: string): TruthViolation[] {
  const out: TruthViolation[] = [];
  const claims: { label: 'Lock timeout' | 'Key expiry'; text: string; where: string }[] = [];
  for (const block of blocks) {
    if (block.kind === 'text') {
      const m = /^(Lock timeout|Key expiry):\s*([^.]*(?:\.\d[^.]*)?)/.exec(block.text);
      if (m) claims.push({ label: m[1] as 'Lock timeout' | 'Key expiry', text: m[2] ?? '', where: block.text });
    } else if (block.kind === 'row' && !block.header && /^(Lock timeout|Key expiry)$/.test(block.cells[0] ?? '')) {
      claims.push({ label: block.cells[0] as 'Lock timeout' | 'Key expiry', text: (block.cells[1] ?? '').replace(/\s*\(.*$/, ''), where: block.cells[1] ?? '' });
    }
  }
  for (const claim of claims) {
    // Code that carries no per-action policy in a readable form (e.g. an agnostic design) has nothing to contradict.
    if (policies.leaseMs.size === 0 && policies.ttlMs.size === 0) break;
    const values = claim.label === 'Lock timeout' ? policies.leaseMs : policies.ttlMs;
    for (const [names, duration] of statedDurations(claim.text, actions)) {
      for (const name of names) {
        const actual = values.get(name);
        const what = claim.label === 'Lock timeout' ? 'leaseMs' : 'ttlMs';
        if (actual === undefined) out.push({ check: 'policy', line: lineOf(raw, claim.where), message: `The document states a ${claim.label.toLowerCase()} of ${duration} for ${name}, but the generated code sets no ${what} for it.` });
        else if (formatMs(actual) !== duration) out.push({ check: 'policy', line: lineOf(raw, claim.where), message: `The document states a ${claim.label.toLowerCase()} of ${duration} for ${name}; the generated code sets ${what} ${actual} (${formatMs(actual)}).` });
      }
    }
  }
  return out;
}

/** Code blocks with the caption (figcaption / italic title) just before them. */
function captioned(blocks: readonly DocBlock[]): { caption: string; code: string }[] {
  const out: { caption: string; code: string }[] = [];
  blocks.forEach((block, i) => {
    const before = blocks[i - 1];
    if (block.kind === 'code' && before?.kind === 'text') out.push({ caption: before.text, code: block.text });
  });
  return out;
}

function artifactViolations(blocks: readonly DocBlock[], codeDir: string, files: readonly string[], raw: string): TruthViolation[] {
  const out: TruthViolation[] = [];
  const listed = listedArtifacts(blocks);
  for (const path of listed) {
    if (!files.includes(path)) out.push({ check: 'artifact-missing', line: lineOf(raw, path), message: `The document lists ${path}, but ${codeDir} has no such file.` });
  }
  for (const { caption, code } of captioned(blocks)) {
    const path = listed.find((p) => caption === p || caption.endsWith(`— ${p}`));
    if (!path || !files.includes(path)) continue;
    const actual = readFileSync(join(codeDir, path), 'utf8');
    if (trimLines(actual) !== trimLines(code)) {
      const at = trimLines(actual).split('\n').findIndex((line, i) => line !== trimLines(code).split('\n')[i]);
      out.push({ check: 'artifact-differs', line: lineOf(raw, caption), message: `The document embeds ${path}, but the file beside it differs (first at its line ${at + 1}).` });
    }
  }
  return out;
}

function statementViolations(blocks: readonly DocBlock[], codeDir: string, files: readonly string[], raw: string): TruthViolation[] {
  // project.json holds the statements and scripts as JSON strings: compare their decoded text.
  const strings = (value: unknown): string[] => (typeof value === 'string' ? [value] : value && typeof value === 'object' ? Object.values(value).flatMap(strings) : []);
  const sources = files
    .filter((f) => /queries\.sql$|project\.json$|\.lua$/.test(f))
    .flatMap((f) => {
      const text = readFileSync(join(codeDir, f), 'utf8');
      return f.endsWith('.json') ? strings(JSON.parse(text)) : [text];
    })
    .map(normalise);
  const out: TruthViolation[] = [];
  for (const { caption, code } of captioned(blocks)) {
    const m = /^(\S+) — the runtime['’]s .*(store, as it executes it|script)/.exec(caption);
    if (!m) continue;
    // The document prefixes a statement with its purpose and parameters as leading comment lines; the rest is verbatim.
    const lines = code.split('\n');
    const first = lines.findIndex((line) => !/^\s*--/.test(line));
    const body = normalise(lines.slice(Math.max(0, first)).join('\n').replace(/;\s*$/, ''));
    if (sources.length === 0) out.push({ check: 'statement', line: lineOf(raw, caption), message: `The document quotes the runtime's ${m[1]} statement, but no queries file (db/*queries.sql, project.json or a .lua script) is beside it.` });
    else if (!sources.some((source) => source.includes(body))) {
      out.push({ check: 'statement', line: lineOf(raw, caption), message: `The document's ${m[1]} statement is not the one in the generated queries: the code would run something else.` });
    }
  }
  return out;
}

function problemViolations(blocks: readonly DocBlock[], policies: Policies, raw: string): TruthViolation[] {
  const out: TruthViolation[] = [];
  for (const block of blocks) {
    if (block.kind !== 'code' || !/"type"\s*:/.test(block.text)) continue;
    let body: { type?: unknown; code?: unknown; status?: unknown; title?: unknown };
    try {
      body = JSON.parse(block.text) as typeof body;
    } catch {
      continue;
    }
    if (typeof body.code !== 'string' || !(body.code in PROBLEMS)) continue;
    const code = body.code as ProblemCode;
    const type = `${policies.typeBase}${code}`;
    const status = problemStatus(code, policies.profile);
    const where = lineOf(raw, `"type": "${String(body.type)}"`) || lineOf(raw, String(body.type));
    if (body.type !== type) out.push({ check: 'problem', line: where, message: `The document's ${code} answer has type ${String(body.type)}; the runtime sends ${type}.` });
    if (body.status !== undefined && body.status !== status) out.push({ check: 'problem', line: where, message: `The document's ${code} answer has status ${String(body.status)}; the runtime sends ${status}.` });
    if (body.title !== undefined && body.title !== PROBLEMS[code].title) out.push({ check: 'problem', line: where, message: `The document's ${code} title differs from the runtime's (“${PROBLEMS[code].title}”).` });
  }
  return out;
}

const ENCRYPTED = /\b(?:are|is) (?:\S+ )?encrypted at rest\b|\bsets `?createEncryptionCodec\b/i;
const QUALIFIED = /\bwhen a codec is set\b|\bno codec\b|\bNOT YET\b/i;
const TRANSACTIONAL = /\bcommits? in one (?:database )?transaction\b/i;
const TARGET = /\bnot yet\b|\btarget\b|\bwhen the code runs\b/i;
const UUID_ONLY = /\b(?:UUID|ULID)\w*\b[^.]*\b(?:refused|rejected|rejects|answers 400)\b|\b(?:refused|rejected|rejects|answers 400)\b[^.]*\b(?:UUID|ULID)/i;

function claimViolations(blocks: readonly DocBlock[], code: string, raw: string): TruthViolation[] {
  const out: TruthViolation[] = [];
  const encrypted = /createEncryptionCodec\s*\(/.test(code);
  const acceptsShort = runtimeKeyRule().acceptsShort;
  const transactional = /createTransactionalIdempotency\s*\(/.test(code);
  for (const block of blocks) {
    if (block.kind !== 'text' && block.kind !== 'row') continue;
    const texts = block.kind === 'text' ? [block.text] : block.cells;
    for (const sentence of texts.flatMap((text) => text.split(/(?<=\.)\s+/))) {
      if (!encrypted && ENCRYPTED.test(sentence) && !QUALIFIED.test(sentence)) {
        out.push({ check: 'encryption', line: lineOf(raw, sentence), message: `“${sentence.slice(0, 90)}” — but no generated file sets createEncryptionCodec.` });
      }
      if (!transactional && TRANSACTIONAL.test(sentence) && !TARGET.test(sentence)) {
        out.push({ check: 'transactional', line: lineOf(raw, sentence), message: `“${sentence.slice(0, 90)}” — but no generated file runs createTransactionalIdempotency: a crash is recovered by the lease.` });
      }
      if (acceptsShort && UUID_ONLY.test(sentence)) {
        out.push({ check: 'key-validation', line: lineOf(raw, sentence), message: `“${sentence.slice(0, 90)}” — but the runtime's validateKey accepts any 1–255 characters of [A-Za-z0-9_.:~-] (it accepts k1).` });
      }
    }
  }
  return out;
}

const KOA_SCOPE = /In `?koa\.ts`?, keys are scoped by `?(ctx\.state(?:\.[A-Za-z_$][\w$]*)+)`?/;
const KOA_STEP = /add `?idempotent\.([A-Za-z][A-Za-z0-9]*)`? from `?koa\.ts`? to its registration, right before the handler — `?(.+?)`? — with the key optional/;

/** What the document says of koa.ts — the principal it scopes keys by, the middleware and registration of the first route — against koa.ts. */
function koaViolations(blocks: readonly DocBlock[], codeDir: string, files: readonly string[], raw: string): TruthViolation[] {
  const file = files.includes('koa.ts') ? readFileSync(join(codeDir, 'koa.ts'), 'utf8') : undefined;
  const out: TruthViolation[] = [];
  for (const block of blocks) {
    if (block.kind !== 'text' && block.kind !== 'row') continue;
    for (const text of block.kind === 'text' ? [block.text] : block.cells) {
      const scope = KOA_SCOPE.exec(text);
      const step = KOA_STEP.exec(text);
      if (!scope && !step) continue;
      if (file === undefined) {
        out.push({ check: 'koa', line: lineOf(raw, text), message: 'The document describes koa.ts, but the code directory has none.' });
        continue;
      }
      const read = scope?.[1]?.split('.').slice(2).map((segment) => `?.${segment}`).join('');
      if (read && !file.includes(`)${read};`)) out.push({ check: 'koa', line: lineOf(raw, 'keys are scoped by'), message: `The document says koa.ts scopes keys by ${scope?.[1]}, but its principalOf reads something else.` });
      if (step && !file.includes(`  ${step[1]}: idempotencyMiddleware(`)) out.push({ check: 'koa', line: lineOf(raw, 'to its registration, right before the handler'), message: `The document tells to add idempotent.${step[1]} from koa.ts, but koa.ts defines no such middleware.` });
      else if (step?.[2] && !file.includes(step[2])) out.push({ check: 'koa', line: lineOf(raw, 'to its registration, right before the handler'), message: `The document shows the registration “${step[2].slice(0, 80)}”, but koa.ts lists another for idempotent.${step[1]}.` });
    }
  }
  return out;
}

/**
 * Every contradiction between the document, the code directory beside it and the runtime.
 * @example
 * const text = readFileSync('docs/idempotency-design.html', 'utf8');
 * checkAgainstArtifacts(text, 'html', 'idempotency').map((v) => `${v.line}: ${v.message}`);
 */
export function checkAgainstArtifacts(raw: string, format: 'html' | 'md', codeDir: string | undefined): TruthViolation[] {
  const tree = format === 'html' ? htmlTree(raw) : markdownTree(raw);
  const blocks = flatten(tree.sections);
  if (!codeDir || !existsSync(codeDir)) {
    const listed = listedArtifacts(blocks);
    return [{ check: 'artifact-missing', line: listed[0] ? lineOf(raw, listed[0]) : 0, message: `The document lists ${listed.length} generated file(s), but no code directory beside it holds them (pass --code DIR).` }];
  }
  const files = listFiles(codeDir);
  const code = files.filter((f) => !/\.md$/.test(f)).map((f) => readFileSync(join(codeDir, f), 'utf8')).join('\n');
  const policies = readPolicies(codeDir, files.filter((f) => /(^|\/)project\.json$|(^|\/)idempotency\.ts$/.test(f)));
  const actions = [...(tree.meta?.actions ?? [])];
  return [
    ...artifactViolations(blocks, codeDir, files, raw),
    ...statementViolations(blocks, codeDir, files, raw),
    ...policyViolations(blocks, actions, policies, raw),
    ...problemViolations(blocks, policies, raw),
    ...claimViolations(blocks, code, raw),
    ...koaViolations(blocks, codeDir, files, raw),
    ...serverActionViolations(blocks, codeDir, files, raw, lineOf),
  ];
}
