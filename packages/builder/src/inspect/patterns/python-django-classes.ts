/**
 * Django forms, models and DRF serializers of one Python file as facts: each class with its bases
 * (as references a later step resolves through the file's imports), the fields it declares and its
 * `class Meta`. graphene-django form and serializer mutations take their input from these classes
 * (django-input-fields.ts resolves them once every file is read).
 */
import { formatLocation } from '../location.js';
import { argsOf, keyword, splitArgs, stringLiteral } from './python-args.js';
import { indentBlockEnd, matchesWithLines, sliceLines } from './line-patterns.js';

/** A name written in a file, with where it may be declared. */
export interface PyRef {
  readonly name: string;
  /** The file the name is written in: a class of that name there is the first candidate. */
  readonly file: string;
  /** Repository paths (exact, or a suffix for absolute imports) of the module it is imported from. */
  readonly modules: readonly string[];
  /** The dotted module it is imported from as written (`django.contrib.auth.forms`), for library classes. */
  readonly from?: string;
}

/** A class attribute that builds a field: `email = forms.EmailField(...)`, `owner = models.ForeignKey(...)`. */
export interface DeclaredField {
  readonly name: string;
  /** The constructor's last name (`EmailField`, `ForeignKey`, `OrderSerializer`). */
  readonly builder: string;
  /** Not settable by a client: `read_only=True`, `editable=False`, `auto_now(_add)`, an auto primary key. */
  readonly readOnly: boolean;
  readonly primaryKey: boolean;
}

/** `class Meta:` of a form, serializer or mutation; `unknown` when a list is not a literal. */
export interface MetaFacts {
  readonly model?: PyRef;
  readonly fields?: readonly string[] | '__all__' | 'unknown';
  readonly exclude?: readonly string[] | 'unknown';
  readonly readOnlyFields?: readonly string[];
  /** Other `name = Identifier` entries (`form_class`, `serializer_class`) as references. */
  readonly refs: ReadonlyMap<string, PyRef>;
  /** Other list entries (`only_fields`, `exclude_fields`). */
  readonly lists: ReadonlyMap<string, readonly string[]>;
  readonly strings: ReadonlyMap<string, string>;
}

export interface DjangoClass {
  readonly name: string;
  readonly file: string;
  readonly location: string;
  readonly bases: readonly PyRef[];
  readonly declared: readonly DeclaredField[];
  /** `self.fields["x"] = …` in `__init__`: fields a form adds at run time. */
  readonly added: readonly string[];
  /** `del self.fields["x"]` / `self.fields.pop("x")`: fields a form removes at run time. */
  readonly removed: readonly string[];
  readonly meta?: MetaFacts;
}

/** Constructors that build a field: form and model fields, relations, nested serializers. */
const FIELD_BUILDER = /(?:Field|ForeignKey|Serializer)$/;
const READ_ONLY_BUILDER = /^(SerializerMethodField|ReadOnlyField|HiddenField|AutoField|BigAutoField|SmallAutoField|ReadOnlyPasswordHashField)$/;

function dirOf(file: string): string {
  return file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
}

/** Module paths for `from <module> import …`: relative ones from the file's directory, absolute ones as suffixes. */
function modulePaths(file: string, module: string): string[] {
  const dots = /^\.*/.exec(module)?.[0].length ?? 0;
  const rest = module.slice(dots).replace(/\./g, '/');
  let base = rest;
  if (dots > 0) {
    let dir = dirOf(file);
    for (let i = 1; i < dots; i += 1) dir = dirOf(dir);
    base = [dir, rest].filter(Boolean).join('/');
  }
  return base ? [`${base}.py`, `${base}/__init__.py`] : [];
}

interface ImportedName {
  readonly modules: string[];
  /** The name as a dotted module path (`django.forms`, `.forms.OrderForm`): a submodule or a name in its module. */
  readonly dotted: string;
  readonly from: string;
}

/** `from x.y import A, B as C`, `from . import forms`, `import x.y as z`: local name → where it comes from. */
export function pythonImports(file: string, text: string): Map<string, ImportedName> {
  const out = new Map<string, ImportedName>();
  for (const { match } of matchesWithLines(text, /^from\s+([\w.]+)\s+import\s+(\([^)]*\)|[^\n]+)/gm)) {
    const module = match[1] ?? '';
    for (const part of (match[2] ?? '').replace(/#[^\n]*/g, '').replace(/[()\\]/g, ' ').split(',')) {
      const m = /^\s*(\w+)(?:\s+as\s+(\w+))?\s*$/.exec(part);
      if (!m?.[1]) continue;
      const dotted = module.endsWith('.') ? `${module}${m[1]}` : `${module}.${m[1]}`;
      // The name may be a submodule (`from . import forms`) or a name the module defines.
      out.set(m[2] ?? m[1], { modules: [...modulePaths(file, dotted), ...modulePaths(file, module)], dotted, from: module });
    }
  }
  for (const { match } of matchesWithLines(text, /^import\s+([\w.]+)(?:\s+as\s+(\w+))?\s*$/gm)) {
    const module = match[1] ?? '';
    const local = match[2] ?? module.split('.')[0] ?? module;
    const dotted = match[2] ? module : local;
    out.set(local, { modules: modulePaths(file, dotted), dotted, from: dotted });
  }
  return out;
}

/**
 * A name as written (`UserForm`, `forms.UserForm`, `auth_forms.UserCreationForm`) as a reference.
 * @example refOf('shop/m.py', 'forms.OrderForm', pythonImports('shop/m.py', 'from . import forms')).modules // ['shop/forms.py', …]
 */
export function refOf(file: string, written: string, imports: ReadonlyMap<string, ImportedName>): PyRef {
  const parts = written.split('.');
  const name = parts[parts.length - 1] ?? written;
  if (parts.length === 1) {
    const imported = imports.get(name);
    return imported ? { name, file, modules: imported.modules, from: imported.from } : { name, file, modules: [] };
  }
  // `forms.UserForm` with `from . import forms` / `from django import forms`: a name in the module the head names.
  const head = imports.get(parts[0] ?? '');
  if (!head) return { name, file, modules: [] };
  const module = [head.dotted, ...parts.slice(1, -1)].join('.');
  return { name, file, modules: modulePaths(file, module), from: module };
}

/** The string items of a `[…]`/`(…)` literal; undefined when it is anything else. */
function stringList(expr: string | undefined): string[] | undefined {
  if (!expr) return undefined;
  const trimmed = expr.trim();
  if (!/^[[(][\s\S]*[\])]$/.test(trimmed)) return undefined;
  const items = splitArgs(trimmed.slice(1, -1));
  const names = items.map((i) => stringLiteral(i));
  return names.every((n): n is string => n !== undefined) ? names : undefined;
}

/** `name = <value>` statements at one indentation of a block, values read to their closing bracket. */
function assignments(block: string, indent: string): Array<{ name: string; value: string; index: number }> {
  const out: Array<{ name: string; value: string; index: number }> = [];
  for (const match of block.matchAll(new RegExp(`^${indent}(\\w+)\\s*(?::[^=\\n]+)?=(?!=)[ \\t]*`, 'gm'))) {
    const index = match.index ?? 0;
    const start = index + match[0].length;
    const rest = block.slice(start, start + 200);
    const newline = block.indexOf('\n', start);
    const value = /^[\w.]*\(|^[[{]/.test(rest) ? bracketText(block, start) : block.slice(start, newline < 0 ? undefined : newline);
    out.push({ name: match[1] ?? '', value: value.trim(), index });
  }
  return out;
}

/** The text from `from` to the bracket closing the first one opened. */
function bracketText(text: string, from: number): string {
  let depth = 0;
  for (let i = from; i < text.length && i - from < 4000; i += 1) {
    const char = text[i] ?? '';
    if ('([{'.includes(char)) depth += 1;
    else if (')]}'.includes(char)) {
      depth -= 1;
      if (depth === 0) return text.slice(from, i + 1);
    }
  }
  return text.slice(from, from + 4000);
}

function metaOf(file: string, block: string, imports: ReadonlyMap<string, ImportedName>): MetaFacts {
  const indent = /^([ \t]+)\S/m.exec(block)?.[1] ?? '    ';
  const refs = new Map<string, PyRef>();
  const lists = new Map<string, readonly string[]>();
  const strings = new Map<string, string>();
  let model: PyRef | undefined;
  let fields: MetaFacts['fields'];
  let exclude: MetaFacts['exclude'];
  let readOnlyFields: string[] | undefined;
  for (const { name, value } of assignments(block, indent)) {
    const literal = stringLiteral(value);
    const list = stringList(value);
    if (name === 'model' && /^[\w.]+$/.test(value)) model = refOf(file, value, imports);
    else if (name === 'fields') fields = literal === '__all__' ? '__all__' : list ?? 'unknown';
    else if (name === 'exclude') exclude = list ?? 'unknown';
    else if (name === 'read_only_fields') readOnlyFields = list;
    else if (list) lists.set(name, list);
    else if (literal !== undefined) strings.set(name, literal);
    else if (/^[A-Za-z_][\w.]*$/.test(value)) refs.set(name, refOf(file, value, imports));
  }
  return { ...(model ? { model } : {}), ...(fields ? { fields } : {}), ...(exclude ? { exclude } : {}), ...(readOnlyFields ? { readOnlyFields } : {}), refs, lists, strings };
}

function declaredField(name: string, value: string): DeclaredField | undefined {
  const builder = /^([\w.]+)\(/.exec(value)?.[1]?.split('.').pop() ?? '';
  if (!FIELD_BUILDER.test(builder)) return undefined;
  const args = argsOf(value);
  const flag = (key: string): boolean => keyword(args, key) === 'True';
  const primaryKey = flag('primary_key');
  const readOnly = READ_ONLY_BUILDER.test(builder) || flag('read_only') || flag('auto_now') || flag('auto_now_add') || keyword(args, 'editable') === 'False';
  return { name, builder, readOnly, primaryKey };
}

/**
 * Every class of one file with the field facts forms, models and serializers need.
 * @example djangoClasses('shop/forms.py', 'class OrderForm(forms.Form):\n    qty = forms.IntegerField()')[0].declared[0].name // 'qty'
 */
export function djangoClasses(file: string, text: string): DjangoClass[] {
  if (!/forms|models|serializers|Form|Model|Serializer|form_class|serializer_class/.test(text)) return [];
  const imports = pythonImports(file, text);
  const out: DjangoClass[] = [];
  for (const { match, line } of matchesWithLines(text, /^class (\w+)(?:\(([^)]*)\))?\s*:/gm)) {
    // Bases may span lines (`class X(\n    A,\n    B,\n):`): the body starts after the header's last line.
    const header = line + (match[0].match(/\n/g)?.length ?? 0);
    const end = indentBlockEnd(text, line, header);
    const block = sliceLines(text, header + 1, end);
    const indent = /^([ \t]+)\S/m.exec(block)?.[1] ?? '    ';
    const bases = (match[2] ?? '').split(',').map((b) => b.trim()).filter((b) => /^[A-Za-z_][\w.]*$/.test(b) && b !== 'object');
    const declared = assignments(block, indent).flatMap(({ name, value }) => declaredField(name, value) ?? []);
    const meta = new RegExp(`^${indent}class Meta\\b[^:\\n]*:`, 'm').exec(block);
    const metaLine = meta ? header + 1 + block.slice(0, meta.index).split('\n').length - 1 : undefined;
    const added = [...block.matchAll(/\bself\.fields\[\s*["'](\w+)["']\s*\]\s*=(?!=)/g)].map((m) => m[1] ?? '');
    const removed = [...block.matchAll(/\bdel\s+self\.fields\[\s*["'](\w+)["']\s*\]|\bself\.fields\.pop\(\s*["'](\w+)["']/g)].map((m) => m[1] ?? m[2] ?? '');
    out.push({
      name: match[1] ?? '', file, location: formatLocation(file, line),
      bases: bases.map((b) => refOf(file, b, imports)), declared, added, removed,
      ...(metaLine ? { meta: metaOf(file, sliceLines(text, metaLine + 1, indentBlockEnd(text, metaLine)), imports) } : {}),
    });
  }
  return out;
}
