/**
 * The input fields of a graphene-django form or serializer mutation, from the classes every Python
 * file declares (python-django-classes.ts): a Django form's declared fields (inherited too), a
 * ModelForm's `Meta.fields`/`exclude` (the model's editable fields for `'__all__'`), a DRF
 * serializer's writable fields. References follow the file's imports; Django's own auth forms and
 * models are known by their source. Anything else unresolved leaves the fields undetermined.
 */
import type { DeclaredField, DjangoClass, MetaFacts, PyRef } from './patterns/python-django-classes.js';

/** What a class contributes, after its bases. */
interface Resolved {
  readonly kind: 'form' | 'model-form' | 'serializer' | 'model-serializer' | 'model' | 'other';
  readonly declared: readonly DeclaredField[];
  readonly meta?: MetaFacts;
  readonly metaFile?: string;
  /** `del self.fields["x"]` in the class or a base: gone from the form whatever Meta says. */
  readonly removed: readonly string[];
  /** Set when something it depends on is not known: the fields cannot be stated. */
  readonly unknown?: string;
}

const NONE: readonly string[] = [];
const field = (name: string, readOnly = false): DeclaredField => ({ name, builder: 'Field', readOnly, primaryKey: false });
const fields = (...names: string[]): DeclaredField[] => names.map((n) => field(n));

/** Bases that start a hierarchy: what they are, and nothing declared. */
const ROOTS: Record<string, Resolved['kind']> = {
  Form: 'form', BaseForm: 'form', ModelForm: 'model-form', BaseModelForm: 'model-form',
  Serializer: 'serializer', BaseSerializer: 'serializer', ModelSerializer: 'model-serializer', HyperlinkedModelSerializer: 'model-serializer',
  Model: 'model',
};

const AUTH_USER = fields('username', 'first_name', 'last_name', 'email', 'is_staff', 'is_active', 'date_joined');
const BASE_USER = fields('password', 'last_login');
const PERMISSIONS = fields('is_superuser', 'groups', 'user_permissions');

/** Django's own classes users subclass, as django/contrib/auth/forms.py and models.py declare them (Django 3.0 to 5.x). */
const DJANGO: Record<string, Resolved> = {
  AuthenticationForm: { kind: 'form', declared: fields('username', 'password'), removed: NONE },
  PasswordResetForm: { kind: 'form', declared: fields('email'), removed: NONE },
  SetPasswordForm: { kind: 'form', declared: fields('new_password1', 'new_password2'), removed: NONE },
  PasswordChangeForm: { kind: 'form', declared: fields('old_password', 'new_password1', 'new_password2'), removed: NONE },
  UserCreationForm: { kind: 'model-form', declared: fields('password1', 'password2'), removed: NONE, meta: { fields: ['username'], refs: new Map(), lists: new Map(), strings: new Map() } },
  BaseUserCreationForm: { kind: 'model-form', declared: fields('password1', 'password2'), removed: NONE, meta: { fields: ['username'], refs: new Map(), lists: new Map(), strings: new Map() } },
  AbstractBaseUser: { kind: 'model', declared: BASE_USER, removed: NONE },
  PermissionsMixin: { kind: 'model', declared: PERMISSIONS, removed: NONE },
  AbstractUser: { kind: 'model', declared: [...BASE_USER, ...PERMISSIONS, ...AUTH_USER], removed: NONE },
  User: { kind: 'model', declared: [...BASE_USER, ...PERMISSIONS, ...AUTH_USER], removed: NONE },
};

const LIBRARY = /^(django|rest_framework)(\.|$)/;

export interface DjangoIndex {
  readonly byName: ReadonlyMap<string, readonly DjangoClass[]>;
  /** Every directory name the classes' files sit under: an absolute import from none of them is a library's. */
  readonly dirs: ReadonlySet<string>;
}

/**
 * Indexes the classes of every file by name.
 * @example djangoIndex(classes).byName.get('OrderForm')?.[0]?.file // 'shop/forms.py'
 */
export function djangoIndex(classes: readonly DjangoClass[]): DjangoIndex {
  const byName = new Map<string, DjangoClass[]>();
  const dirs = new Set<string>();
  for (const cls of classes) {
    byName.set(cls.name, [...(byName.get(cls.name) ?? []), cls]);
    for (const part of cls.file.split('/').slice(0, -1)) dirs.add(part);
    dirs.add(cls.file.slice(cls.file.lastIndexOf('/') + 1).replace(/\.py$/, ''));
  }
  return { byName, dirs };
}

/** The repository class a reference names: same file, else the module it is imported from, else the only one of that name. */
function lookup(ref: PyRef, index: DjangoIndex): DjangoClass | undefined {
  const candidates = index.byName.get(ref.name) ?? [];
  const local = candidates.find((c) => c.file === ref.file);
  if (local) return local;
  for (const module of ref.modules) {
    const found = candidates.filter((c) => c.file === module || c.file.endsWith(`/${module}`));
    if (found.length === 1) return found[0];
  }
  // Imported from a package the repository does not hold (`allauth.account.forms`): never a homonym of ours.
  if (ref.from && !ref.from.startsWith('.') && !index.dirs.has(ref.from.split('.')[0] ?? '')) return undefined;
  return candidates.length === 1 ? candidates[0] : undefined;
}

function resolve(ref: PyRef, index: DjangoIndex, depth: number): Resolved {
  const cls = lookup(ref, index);
  if (!cls) {
    const root = ROOTS[ref.name];
    if (root && (!ref.from || LIBRARY.test(ref.from))) return { kind: root, declared: [], removed: NONE };
    const known = DJANGO[ref.name];
    if (known && ref.from && /^django\.contrib\.auth/.test(ref.from)) return known;
    return { kind: 'other', declared: [], removed: NONE, unknown: ref.from ? `${ref.name} (from ${ref.from})` : ref.name };
  }
  if (depth > 8) return { kind: 'other', declared: [], removed: NONE, unknown: `${ref.name} (inheritance too deep)` };
  let kind: Resolved['kind'] = 'other';
  let meta: MetaFacts | undefined = cls.meta;
  let metaFile = cls.meta ? cls.file : undefined;
  let unknown: string | undefined;
  const inherited: DeclaredField[] = [];
  const removed = [...cls.removed];
  // Python's lookup order: the first base's attributes win, so it is read last.
  for (const base of [...cls.bases].reverse()) {
    const parent = resolve(base, index, depth + 1);
    if (parent.kind !== 'other') kind = parent.kind;
    unknown ??= parent.unknown;
    inherited.push(...parent.declared);
    removed.push(...parent.removed);
    if (!cls.meta && parent.meta) {
      meta = parent.meta;
      metaFile = parent.metaFile;
    }
  }
  const own = new Set(cls.declared.map((d) => d.name));
  const declared = [...inherited.filter((d) => !own.has(d.name)), ...cls.declared, ...cls.added.map((n) => field(n))];
  return { kind, declared, removed, ...(meta ? { meta } : {}), ...(metaFile ? { metaFile } : {}), ...(unknown ? { unknown } : {}) };
}

export type InputFields = { readonly fields: string[] } | { readonly undetermined: string };

function modelFields(meta: MetaFacts, index: DjangoIndex): { all: DeclaredField[] } | { undetermined: string } {
  if (!meta.model) return { undetermined: 'its Meta names no model' };
  const model = resolve(meta.model, index, 0);
  if (model.unknown || model.kind !== 'model') return { undetermined: `model ${meta.model.name} is not a Django model the inspector could read${model.unknown ? ` (base ${model.unknown})` : ''}` };
  const hasPk = model.declared.some((d) => d.primaryKey);
  // Django adds `id` (an AutoField, never editable) when no field is the primary key.
  return { all: [...(hasPk ? [] : [field('id', true)].map((d) => ({ ...d, primaryKey: true }))), ...model.declared] };
}

const unique = (names: readonly string[]): string[] => [...new Set(names)];

/** A form's fields: declared ones always; a ModelForm's `Meta.fields` (or its model's editable fields) too. */
function formFields(form: Resolved, index: DjangoIndex): InputFields {
  const declared = form.declared.map((d) => d.name);
  if (form.kind === 'form') return { fields: unique(declared) };
  const meta = form.meta;
  if (!meta) return { undetermined: 'the ModelForm has no Meta' };
  if (meta.fields === 'unknown' || meta.exclude === 'unknown') return { undetermined: 'its Meta.fields/exclude is not a literal list' };
  // Django refuses a ModelForm whose Meta has neither.
  if (meta.fields === undefined && meta.exclude === undefined) return { undetermined: 'its Meta has neither fields nor exclude' };
  if (Array.isArray(meta.fields)) return { fields: unique([...meta.fields, ...declared]) };
  const model = modelFields(meta, index);
  if ('undetermined' in model) return model;
  const exclude = Array.isArray(meta.exclude) ? meta.exclude : [];
  const editable = model.all.filter((d) => !d.readOnly && !exclude.includes(d.name)).map((d) => d.name);
  return { fields: unique([...editable, ...declared]) };
}

/** A serializer's writable fields; `lookup` (the model's key) is an input of SerializerMutation even though read-only. */
function serializerFields(serializer: Resolved, index: DjangoIndex, lookupField: string | undefined): InputFields {
  const writable = serializer.declared.filter((d) => !d.readOnly).map((d) => d.name);
  const readOnlyDeclared = new Set(serializer.declared.filter((d) => d.readOnly).map((d) => d.name));
  if (serializer.kind === 'serializer') return { fields: unique(writable) };
  const meta = serializer.meta;
  if (!meta) return { undetermined: 'the ModelSerializer has no Meta' };
  if (meta.fields === 'unknown' || meta.exclude === 'unknown') return { undetermined: 'its Meta.fields/exclude is not a literal list' };
  const model = modelFields(meta, index);
  const readOnly = new Set([...(meta.readOnlyFields ?? []), ...readOnlyDeclared, ...('all' in model ? model.all.filter((d) => d.readOnly).map((d) => d.name) : [])]);
  const key = lookupField ?? ('all' in model ? model.all.find((d) => d.primaryKey)?.name : 'id');
  const input = (names: readonly string[]): string[] => unique(names.filter((n) => !readOnly.has(n) || n === key));
  if (Array.isArray(meta.fields)) return { fields: input(meta.fields) };
  if ('undetermined' in model) return model;
  const exclude = Array.isArray(meta.exclude) ? meta.exclude : [];
  return { fields: input([...model.all.map((d) => d.name).filter((n) => !exclude.includes(n)), ...writable]) };
}

export interface MutationInput {
  /** `form_class` or `serializer_class`. */
  readonly source: 'form' | 'serializer';
  readonly ref: PyRef;
  /** The mutation's own `Meta.only_fields` / `exclude_fields`. */
  readonly only?: readonly string[];
  readonly exclude?: readonly string[];
  /** DjangoModelFormMutation adds an `id` input (the instance to change) unless excluded. */
  readonly addsId?: boolean;
  readonly lookupField?: string;
}

/**
 * The input fields a form or serializer mutation takes, or why they cannot be stated.
 * @example mutationInputFields({ source: 'form', ref }, djangoIndex(classes)) // { fields: ['email', 'full_name'] }
 */
export function mutationInputFields(input: MutationInput, index: DjangoIndex): InputFields {
  const resolved = resolve(input.ref, index, 0);
  if (resolved.unknown) return { undetermined: `${input.source} ${input.ref.name} extends ${resolved.unknown}, which is not in the repository` };
  const found = input.source === 'form'
    ? (resolved.kind === 'form' || resolved.kind === 'model-form' ? formFields(resolved, index) : { undetermined: `${input.ref.name} is not a Django form` })
    : (resolved.kind === 'serializer' || resolved.kind === 'model-serializer' ? serializerFields(resolved, index, input.lookupField) : { undetermined: `${input.ref.name} is not a DRF serializer` });
  if ('undetermined' in found) return found;
  const gone = new Set(resolved.removed);
  const only = input.only ?? [];
  const exclude = input.exclude ?? [];
  const kept = found.fields.filter((f) => !gone.has(f) && (only.length === 0 || only.includes(f)) && !exclude.includes(f));
  return { fields: input.addsId && !exclude.includes('id') ? unique([...kept, 'id']) : kept };
}
