/**
 * What a Rails or Laravel action does through its repository's own models and services, one call
 * deep: `current_user.favorite(article)` reaching `def favorite` in `app/models/user.rb`,
 * `$authenticatedUser->follow($user)` reaching a trait's `follow()`, Monica's
 * `(new CreateVault)->execute($data)`. Controllers of these frameworks often only call a model or
 * service method; the write sits in that method's body. Only definitions read in the repository are
 * followed (a gem's or package's method is not), and a method's own `file:line` is its evidence.
 */
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { declarationBody, READING_NAME, type CalleeBody, type FollowedCall, type RepoSources } from './cost-callees.js';
import { maskCode } from './patterns/code-mask.js';
import { walkSourceFiles } from './walk.js';

type Script = 'ruby' | 'php';

/** A followed call, with a note when the definition was chosen among several of that name. */
export interface ScriptCall extends FollowedCall {
  readonly note?: string;
}

/** Calls followed per action, and same-named definitions read when the receiver's class is unknown. */
const MAX_CALLS = 24;
const MAX_AMBIGUOUS = 4;
const MAX_FILES = 20000;
/** A Ruby method body read by indentation, at most this many lines. */
const MAX_RUBY_LINES = 300;

// Names a handler calls that read, render or hand back values, or that are too generic to pick among several definitions by.
const NOT_FOLLOWED = /^(?:new|render|redirect_to|respond_to|respond_with|head|json|response|params|permit|require|authorize|with|where|all|first|last|each|map|merge|only|except|id|user|input|get|show|index|edit|present|blank|inspect)$/;
const GENERIC = /^(?:call|execute|handle|perform|run|process|__invoke|invoke|apply|start|save|update|destroy|delete|create)$/;

interface TypeDecl {
  readonly name: string;
  readonly file: string;
  readonly at: number;
  /** Offset where its body ends (Ruby: its `end` at its own indentation). */
  readonly end: number;
  readonly parent?: string;
  /** Modules (`include Followable`) or traits (`use Followable;`) mixed into it. */
  readonly mixins: readonly string[];
}

interface MethodDef {
  readonly name: string;
  readonly file: string;
  /** Offset of the declaration in the file's masked text. */
  readonly at: number;
  /** The class, module or trait it is declared in (last segment of the name). */
  readonly owner?: string;
}

interface ScriptIndex {
  readonly texts: Map<string, string>;
  readonly types: Map<string, TypeDecl[]>;
  readonly methods: Map<string, MethodDef[]>;
  /** PSR-4 prefixes (`App\\`) → folders (`app/`), from composer.json. */
  readonly psr4: ReadonlyArray<readonly [string, string]>;
}

const scriptOf = (file: string): Script | undefined => (file.endsWith('.rb') ? 'ruby' : file.endsWith('.php') ? 'php' : undefined);
const lastSegment = (name: string): string => name.split(/::|\\/).filter(Boolean).pop() ?? name;
const camel = (snake: string): string => snake.replace(/^@+/, '').split('_').map((w) => (w[0] ?? '').toUpperCase() + w.slice(1)).join('');
const lineAt = (text: string, index: number): number => text.slice(0, index).split('\n').length;

/** The repository's own model, service, concern and library files (Rails), or its autoloaded classes (Laravel); controllers left out. */
function inScope(script: Script, file: string, psr4: ReadonlyArray<readonly [string, string]>): boolean {
  if (/(?:^|\/)(?:spec|test|tests|vendor|node_modules|db|config|database|resources|views)\//.test(file)) return false;
  if (script === 'ruby') {
    if (!file.endsWith('.rb')) return false;
    if (!/^(?:app|lib)\//.test(file)) return false;
    return !/^app\/(?:controllers|views|helpers|assets|javascript)\//.test(file) || /\/concerns\//.test(file);
  }
  if (!file.endsWith('.php') || /\/Controllers?\//.test(file)) return false;
  const roots = psr4.length > 0 ? psr4.map(([, dir]) => dir) : ['app/'];
  return roots.some((dir) => file.startsWith(dir));
}

function composerPsr4(root: string): Array<[string, string]> {
  try {
    const json = JSON.parse(readFileSync(join(root, 'composer.json'), 'utf8')) as { autoload?: { 'psr-4'?: Record<string, unknown> } };
    return Object.entries(json.autoload?.['psr-4'] ?? {})
      .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
      .map(([prefix, dir]) => [prefix, dir.replace(/^\.\//, '').replace(/\/?$/, '/')]);
  } catch {
    return [];
  }
}

const indexes = new Map<string, ScriptIndex>();
function indexOf(sources: RepoSources, script: Script): ScriptIndex {
  const key = `${sources.root}\0${script}`;
  const cached = indexes.get(key);
  if (cached) return cached;
  const psr4 = script === 'php' ? composerPsr4(sources.root) : [];
  const index: ScriptIndex = { texts: new Map(), types: new Map(), methods: new Map(), psr4 };
  const files = walkSourceFiles(sources.root).files.map((f) => f.relPath).filter((f) => inScope(script, f, psr4)).slice(0, MAX_FILES);
  for (const file of files) {
    // String contents blanked (`"#{n} # profiles.destroy_all"` quotes no call); Ruby's `#{…}` holes stay code.
    const text = maskCode(sources.read(file).join('\n'), script, { strings: true });
    index.texts.set(file, text);
    const decls = script === 'ruby' ? rubyTypes(file, text) : phpTypes(file, text);
    for (const decl of decls) index.types.set(decl.name, [...(index.types.get(decl.name) ?? []), decl]);
    // The innermost class, module or trait whose body holds the method.
    const ownerAt = (at: number): string | undefined => decls.filter((d) => d.at < at && at < d.end).pop()?.name;
    const pattern = script === 'ruby' ? /^[ \t]*def\s+(?:self\.)?([A-Za-z_]\w*[!?]?)/gm : /\bfunction\s+&?\s*(\w+)\s*\(/g;
    for (const m of text.matchAll(pattern)) {
      const name = m[1] ?? '';
      const owner = ownerAt(m.index);
      index.methods.set(name, [...(index.methods.get(name) ?? []), { name, file, at: m.index, ...(owner ? { owner } : {}) }]);
    }
  }
  indexes.set(key, index);
  return index;
}

function rubyTypes(file: string, text: string): TypeDecl[] {
  const decls = [...text.matchAll(/^([ \t]*)(?:class|module)\s+((?:::)?[A-Z][\w:]*)(?:\s*<\s*((?:::)?[A-Z][\w:]*))?.*$/gm)];
  return decls.map((m) => {
    const header = m.index + m[0].length;
    const close = /;\s*end\s*$/.test(m[0]) ? null : new RegExp(`^[ \\t]{0,${(m[1] ?? '').length}}end\\b`, 'm').exec(text.slice(header));
    const end = /;\s*end\s*$/.test(m[0]) ? header : close ? header + close.index : text.length;
    // Its own `include`s: those of a class nested in it are at a deeper indentation, but few models nest one.
    const mixins = [...text.slice(m.index, end).matchAll(/^[ \t]*(?:include|extend|prepend)\s+([A-Z][\w:]*(?:\s*,\s*[A-Z][\w:]*)*)/gm)]
      .flatMap((inc) => (inc[1] ?? '').split(',').map((s) => lastSegment(s.trim())));
    return { name: lastSegment(m[2] ?? ''), file, at: m.index, end, ...(m[3] ? { parent: lastSegment(m[3]) } : {}), mixins };
  });
}

function phpTypes(file: string, text: string): TypeDecl[] {
  const decls = [...text.matchAll(/^\s*(?:(?:abstract|final|readonly)\s+)*(?:class|trait|interface|enum)\s+(\w+)(?:\s+extends\s+\\?([\w\\]+))?/gm)];
  return decls.map((m, i) => {
    const end = decls[i + 1]?.index ?? text.length;
    // `use A, B;` inside the class body names traits; the file's top-level `use` lines are imports.
    const mixins = [...text.slice(m.index, end).matchAll(/^[ \t]+use\s+([\\\w]+(?:\s*,\s*[\\\w]+)*)\s*[;{]/gm)]
      .flatMap((u) => (u[1] ?? '').split(',').map((s) => lastSegment(s.trim())));
    return { name: m[1] ?? '', file, at: m.index, end, ...(m[2] ? { parent: lastSegment(m[2]) } : {}), mixins };
  });
}

/** The body of a method declared at `at` in `file`: by indentation (Ruby `def … end`) or braces (PHP). */
function methodBody(index: ScriptIndex, script: Script, def: MethodDef): CalleeBody | undefined {
  const text = index.texts.get(def.file) ?? '';
  if (script === 'php') {
    const paren = text.indexOf('(', def.at);
    const range = paren < 0 ? undefined : declarationBody(text, paren);
    return range ? { file: def.file, line: lineAt(text, range.from), end: lineAt(text, range.to), text: text.slice(range.from, range.to) } : undefined;
  }
  const lines = text.split('\n');
  const first = lineAt(text, def.at) - 1;
  const header = lines[first] ?? '';
  const indent = /^[ \t]*/.exec(header)?.[0].length ?? 0;
  // `def x(a) = expr` and `def x; …; end` on one line.
  if (/\)\s*=[^=]|^\s*def\s+[\w.!?]+\s*=[^=]|;\s*end\s*$/.test(header)) return { file: def.file, line: first + 1, end: first + 1, text: header.replace(/^\s*def\s+[\w.!?]+(?:\([^)]*\))?/, '') };
  let end = first + 1;
  while (end < lines.length && end - first < MAX_RUBY_LINES && !new RegExp(`^[ \\t]{0,${indent}}end\\b`).test(lines[end] ?? '')) end += 1;
  return { file: def.file, line: first + 2, end: end, text: lines.slice(first + 1, end).join('\n') };
}

/** Definitions of `name` in class `type`, its mixins, then its parent class (two levels up), or undefined when the class is not in the repository. */
function definitionsInClass(index: ScriptIndex, type: string, name: string, preferFile?: string, depth = 0): MethodDef[] | undefined {
  const decls = index.types.get(type);
  if (!decls || depth > 2) return undefined;
  // The class the handler imports (`use App\\Domains\\Settings\\…\\UpdateReligion;`) when several share its short name.
  const ordered = preferFile && decls.some((d) => d.file === preferFile) ? decls.filter((d) => d.file === preferFile) : decls;
  const defs = index.methods.get(name) ?? [];
  const own = defs.filter((d) => d.owner === type && ordered.some((decl) => decl.file === d.file));
  if (own.length > 0) return own;
  for (const decl of ordered) {
    for (const mixin of decl.mixins) {
      const found = defs.filter((d) => d.owner === mixin);
      if (found.length > 0) return found;
    }
  }
  for (const decl of ordered) {
    const found = decl.parent ? definitionsInClass(index, decl.parent, name, undefined, depth + 1) : undefined;
    if (found && found.length > 0) return found;
  }
  return [];
}

interface Call {
  readonly name: string;
  readonly at: number;
  readonly receiver: string;
  /** The receiver's class when knowable (`current_user` → User, `User $user`, `Order::find`), with whether it is certain. */
  readonly type?: string;
  readonly sure: boolean;
}

/** PHP: `$x` as a typed parameter or property (`User $user`), `$x = new Order`, `$x = Order::find(…)`; `$this->x` as a typed property. */
function phpType(receiver: string, body: string, signature: string, fileText: string): { type?: string; sure: boolean } {
  if (/^(?:auth\(\)->user\(\)|Auth::user\(\)|\$request->user\(\))$/.test(receiver)) return { type: 'User', sure: true };
  const variable = /^\$(?:this->)?(\w+)$/.exec(receiver)?.[1];
  if (!variable) return { sure: false };
  const typed = new RegExp(`\\\\?([A-Z][\\w\\\\]*)\\s+\\$${variable}\\b`);
  const fromSignature = receiver.startsWith('$this->') ? typed.exec(fileText)?.[1] : typed.exec(signature)?.[1] ?? typed.exec(body)?.[1];
  const assigned = new RegExp(`\\$${receiver.startsWith('$this->') ? `this->${variable}` : variable}\\s*=\\s*(?:new\\s+\\\\?([A-Z][\\w\\\\]*)|\\\\?([A-Z][\\w\\\\]*)::\\w+\\s*\\(|(?:app|resolve)\\s*\\(\\s*\\\\?([A-Z][\\w\\\\]*)::class)`).exec(body);
  const type = fromSignature ?? assigned?.slice(1).find(Boolean);
  if (!type && new RegExp(`\\$${variable}\\s*=\\s*(?:auth\\(\\)\\s*->\\s*user\\(\\)|Auth::user\\(\\)|\\$request\\s*->\\s*user\\(\\))`).test(body)) return { type: 'User', sure: true };
  return type ? { type: lastSegment(type), sure: true } : { type: camel(variable), sure: false };
}

/** Ruby: `current_user`/`Current.user` → User, `Current.family` → Family, `Order`/`Order::Line`, `@order = Order.find(…)` in the action or its controller. */
function rubyType(receiver: string, body: string, fileText: string): { type?: string; sure: boolean } {
  if (/^(?:current_user|Current\.user)$/.test(receiver)) return { type: 'User', sure: true };
  const current = /^Current\.(\w+)$/.exec(receiver)?.[1];
  if (current) return { type: camel(current), sure: true };
  if (/^(?:::)?[A-Z][\w:]*$/.test(receiver)) return { type: lastSegment(receiver), sure: true };
  const variable = /^(@?\w+)$/.exec(receiver)?.[1];
  if (!variable) return { sure: false };
  const assigned = new RegExp(`(?<![\\w@])${variable}\\s*(?:\\|\\|)?=\\s*((?:::)?[A-Z][\\w:]*)\\.(?:find\\w*|new|create\\w*|where|first|last|take|friendly)\\b`);
  const type = assigned.exec(body)?.[1] ?? (variable.startsWith('@') ? assigned.exec(fileText)?.[1] : undefined);
  return type ? { type: lastSegment(type), sure: true } : { type: camel(variable), sure: false };
}

const RUBY_CHAIN_END = /(?<![\w@:.])((?:((?:::)?[A-Z]\w*(?:::[A-Z]\w*)*)\.new\b(?:\([^()]*\))?|(?:(?:::)?[A-Z]\w*(?:::[A-Z]\w*)*|@{0,2}[a-z_]\w*)(?:\s*&?\.\s*[a-z_]\w*[!?]?(?:\([^()]*\))?){2,}))\s*&?\.\s*([a-z_]\w*!?)(?![\w?!]|\s*=[^=~>])/g;

function rubyCalls(body: string, fileText: string): Call[] {
  const out: Call[] = [];
  // `&.` is Ruby's safe navigation (`@api_key&.revoke!`): a call like `.`, on the same receiver.
  for (const m of body.matchAll(/((?:(?:::)?[A-Z][\w]*(?:::[A-Z]\w*)*|@{0,2}[a-z_]\w*)(?:&?\.[a-z_]\w*)?)&?\.([a-z_]\w*!?)(?![\w?!]|\s*=[^=~>])/g)) {
    const receiver = (m[1] ?? '').replace(/&\./g, '.');
    if (/^\.|\w$/.test(body.slice(Math.max(0, m.index - 1), m.index)) && !/^@/.test(receiver)) continue;
    const name = m[2] ?? '';
    out.push({ name, at: m.index + m[0].length - name.length, receiver, ...rubyType(receiver, body, fileText) });
  }
  // The end of a longer chain, which the loop above stops short of: a service object's method (`PlaidItem::Processor.new(body)
  // .process`, its class known) and a method on an association, scope or found record (`Current.family.categories.bootstrap!`,
  // `entries.where(…)\n  .bulk_update!(…)`, `User.active_bots.find(id).reset_bot_key`), its class unknown: looked up by name.
  for (const m of body.matchAll(RUBY_CHAIN_END)) {
    const name = m[3] ?? '';
    const built = m[2] ? lastSegment(m[2]) : undefined;
    out.push({ name, at: m.index + m[0].length - name.length, receiver: m[1] ?? '', ...(built ? { type: built, sure: true } : { sure: false }) });
  }
  return out;
}

function phpCalls(body: string, signature: string, fileText: string): Call[] {
  const out: Call[] = [];
  // `(new CreateVault)->execute(…)`, `app(CreateVault::class)->execute(…)`: an action class's method.
  for (const m of body.matchAll(/\(\s*new\s+\\?([A-Z][\w\\]*)\s*(?:\([^()]*\))?\s*\)\s*->\s*(\w+)\s*\(|\b(?:app|resolve)\s*\(\s*\\?([A-Z][\w\\]*)::class\s*\)\s*->\s*(\w+)\s*\(/g)) {
    const type = lastSegment(m[1] ?? m[3] ?? '');
    out.push({ name: m[2] ?? m[4] ?? '', at: m.index, receiver: type, type, sure: true });
  }
  for (const m of body.matchAll(/(?<![\w$>])(auth\(\)\s*->\s*user\(\)|Auth::user\(\)|\$request\s*->\s*user\(\)|\$this\s*->\s*\w+|\$\w+)\s*->\s*(\w+)\s*\(/g)) {
    const receiver = (m[1] ?? '').replace(/\s+/g, '');
    if (receiver === '$this' || receiver === '$request') continue;
    out.push({ name: m[2] ?? '', at: m.index, receiver, ...phpType(receiver, body, signature, fileText) });
  }
  for (const m of body.matchAll(/(?<![\w\\$>])\\?([A-Z][\w\\]*)::(\w+)\s*\(/g)) {
    const type = lastSegment(m[1] ?? '');
    if (/^(?:self|static|parent)$/.test(type) || m[2] === 'class') continue;
    out.push({ name: m[2] ?? '', at: m.index, receiver: type, type, sure: true });
  }
  return out.sort((a, b) => a.at - b.at);
}

/** The file a class name refers to from the handler's file: its PHP `use` import through PSR-4, its Rails path (`Account::Syncer` → `account/syncer.rb`). */
function classFile(index: ScriptIndex, script: Script, fileText: string, call: Call): string | undefined {
  if (!call.type) return undefined;
  if (script === 'ruby') {
    const path = `/${call.receiver.replace(/^::/, '').split('::').map((s) => s.replace(/([a-z\d])([A-Z])/g, '$1_$2').toLowerCase()).join('/')}.rb`;
    return (index.types.get(call.type) ?? []).find((d) => `/${d.file}`.endsWith(path))?.file;
  }
  const imported = new RegExp(`^use\\s+\\\\?([\\w\\\\]*\\\\${call.type})\\s*;`, 'm').exec(fileText)?.[1];
  const namespace = /^namespace\s+([\w\\]+)\s*;/m.exec(fileText)?.[1];
  const fqn = imported ?? (namespace ? `${namespace}\\${call.type}` : undefined);
  if (!fqn) return undefined;
  for (const [prefix, dir] of index.psr4.length > 0 ? index.psr4 : [['App\\', 'app/'] as const]) {
    if (fqn.startsWith(prefix)) return `${dir}${fqn.slice(prefix.length).replace(/\\/g, '/')}.php`;
  }
  return undefined;
}

/** Whether a method name reads, checks or renders rather than acts. */
function reading(name: string): boolean {
  return name.endsWith('?') || NOT_FOLLOWED.test(name) || READING_NAME.test(name) || /^(?:to|as|is|has|can)_/.test(name);
}

/**
 * The calls of a Rails or Laravel action's `body` that lead into a method of the repository's own code, one
 * level deep, each with that method's body. A receiver whose class is known is looked up in that class, its
 * concerns or traits and its parent; otherwise a method defined once by that name, or (several definitions,
 * a specific name) each of the first few, the caller taking the first that writes and saying so.
 * @example followScriptCalls(sources, 'app/controllers/profiles_controller.rb', '  current_user.favorite(article)\n', '')
 * // [{ name: 'favorite', label: 'User#favorite', callee: { file: 'app/models/user.rb', line: 27, … } }]
 */
export function followScriptCalls(sources: RepoSources, file: string, body: string, signature: string): ScriptCall[] {
  const script = scriptOf(file);
  if (!script) return [];
  const index = indexOf(sources, script);
  const clean = maskCode(body, script, { strings: true });
  const fileText = maskCode(sources.read(file).join('\n'), script, { strings: true });
  const calls = script === 'ruby' ? rubyCalls(clean, fileText) : phpCalls(clean, signature, fileText);
  const out: ScriptCall[] = [];
  const seen = new Set<string>();
  const sep = script === 'ruby' ? '#' : '::';
  for (const call of calls) {
    if (out.length >= MAX_CALLS) break;
    const key = `${call.type ?? ''}${sep}${call.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    // An action class (`(new CreateVault)->execute(…)`) does its work in `execute`, `handle` or `__invoke`.
    if (reading(call.name) && !(call.sure && /^(?:execute|handle|__invoke)$/.test(call.name))) continue;
    const inClass = call.type ? definitionsInClass(index, call.type, call.name, classFile(index, script, fileText, call)) : undefined;
    // A class that is known and in the repository but lacks the method: a gem's or the framework's (`acts_as_follower`'s `follow`).
    if (call.sure && inClass !== undefined && inClass.length === 0) continue;
    let defs = inClass && inClass.length > 0 ? inClass : undefined;
    let note: string | undefined;
    if (!defs) {
      if (call.sure && call.type && /^[A-Z]/.test(call.receiver) && !index.types.has(call.type)) continue;
      const named = (index.methods.get(call.name) ?? []).filter((d) => !(d.file === file));
      if (named.length === 0 || (named.length > 1 && GENERIC.test(call.name))) continue;
      defs = named.slice(0, MAX_AMBIGUOUS);
      if (named.length > 1) note = `one of ${named.length} definitions of ${call.name} in the repository; the receiver's class is not known`;
    }
    for (const def of defs) {
      const callee = methodBody(index, script, def);
      if (!callee || callee.text.trim() === '') continue;
      const owner = def.owner ?? posix.basename(def.file).replace(/\.\w+$/, '');
      out.push({ name: call.name, at: call.at, label: `${owner}${sep}${call.name}`, callee, ...(note ? { note } : {}) });
    }
  }
  return out;
}
