/**
 * Request-body shapes declared in Java and Kotlin: records' components, Kotlin data classes'
 * properties and classes' fields, each under the JSON name a client sends (`@JsonProperty("x")`
 * wins over the field name). What a client never sends is left out: static fields, generated keys,
 * `@JsonIgnore` fields and collections that are relations to other entities.
 */
import { maskCode } from './code-mask.js';
import { braceBlockEnd, callText, matchesWithLines } from './line-patterns.js';
import { splitArgs } from './python-args.js';

/** Relation annotations: the field holds other entities, which a request does not send as values. */
const RELATION = /@(OneToMany|ManyToMany|DBRef|DocumentReference|Relationship|MappedCollection)\b/;

const COLLECTION = /^(?:java\.util\.)?(List|Set|SortedSet|Collection|Iterable|Map|MutableList|MutableSet|MutableMap|Array)\b/;

/** Element types that are values (JSON scalars, dates, identifiers), never entities. */
const VALUE_TYPE = /^(?:String|CharSequence|Integer|Int|Long|Short|Byte|Double|Float|Boolean|Character|Char|Number|BigDecimal|BigInteger|UUID|Object|Any|JsonNode|URI|URL|Date|Instant|LocalDate|LocalDateTime|LocalTime|OffsetDateTime|ZonedDateTime|Duration|Currency|Locale|int|long|short|byte|double|float|boolean|char)$/;

/** `@JsonProperty("x")` (also Kotlin's `@field:` / `@param:` / `@get:` targets): the JSON name. */
function jsonName(annotations: string): string | undefined {
  return /@(?:\w+:)?JsonProperty\s*\(\s*(?:value\s*=\s*)?"([^"]+)"/.exec(annotations)?.[1];
}

/**
 * Whether a collection-typed field is a relation: annotated as one, or, in a JPA `@Entity`, a
 * collection of anything but values (an entity collection mapped on its getter). A DTO's
 * `List<String> tags` or `List<OrderLine> lines` is sent by the client.
 */
function isRelation(type: string, annotations: string, jpaEntity: boolean): boolean {
  const bare = type.replace(/\s+/g, '');
  if (!COLLECTION.test(bare)) return false;
  if (RELATION.test(annotations)) return true;
  if (!jpaEntity || /@(ElementCollection|Embedded)\b/.test(annotations)) return false;
  const elements = /<(.*)>/.exec(bare)?.[1]?.split(',').map((e) => e.replace(/^\?extends|<.*$/g, '').replace(/^.*\./, '')) ?? [];
  return elements.some((element) => !VALUE_TYPE.test(element));
}

/** A parameter list (record components, data class properties) at `open` (its `(`), split at top-level commas. */
function parameters(code: string, open: number): string[] {
  const inner = callText(code, open).slice(1, -1);
  // Type arguments hold commas of their own (`Map<String, String> attributes`).
  let flat = inner;
  for (let depth = 0; depth < 8 && /<[^<>]*>/.test(flat); depth += 1) flat = flat.replace(/<[^<>]*>/g, (m) => m.replace(/,/g, ' '));
  return splitArgs(flat);
}

/** Record components: `@JsonProperty("x") String y` → `x`, else the name. */
function recordFields(code: string, open: number): string[] {
  return parameters(code, open).map((part) => {
    const withoutAnnotations = part.replace(/@[\w.:]+(\s*\((?:[^()]|\([^()]*\))*\))?/g, '').trim();
    return jsonName(part) ?? /(\w+)\s*$/.exec(withoutAnnotations)?.[1] ?? '';
  }).filter(Boolean);
}

/** Kotlin primary-constructor properties: `val`/`var` parameters, under their JSON name. */
function dataClassFields(code: string, open: number): string[] {
  return parameters(code, open).flatMap((part) => {
    const property = /\b(?:val|var)\s+(\w+)/.exec(part);
    return property ? [jsonName(part) ?? property[1] ?? ''] : [];
  }).filter(Boolean);
}

/** Fields of a class body; `bare` is the body with strings blanked (annotations' arguments cannot end a declaration), `body` the same span with them. */
function classFields(body: string, bare: string, jpaEntity: boolean): string[] {
  const fields: string[] = [];
  // A field: optional annotations on its own line or before it, modifiers, a type, a name, an optional initializer.
  const declaration = /^([ \t]*)((?:@[\w.]+(?:\s*\((?:[^()]|\([^()]*\))*\))?\s+)*)((?:(?:private|protected|public|static|final|transient|volatile)\s+)+)([\w<>,\s?.[\]]+?)\s+(\w+)\s*(?:=[^;]*)?;/gm;
  for (const m of bare.matchAll(declaration)) {
    const at = m.index ?? 0;
    if (/\bstatic\b/.test(m[3] ?? '')) continue;
    // Annotations on the lines above belong to the field too: back to the previous declaration's end.
    const before = bare.slice(0, at);
    const from = Math.max(before.lastIndexOf(';'), before.lastIndexOf('{'), before.lastIndexOf('}')) + 1;
    const annotations = body.slice(from, at + (m[1] ?? '').length + (m[2] ?? '').length);
    // Generated keys (`@Id @GeneratedValue`) are never sent by the client, nor are ignored fields.
    if (/@(Id|GeneratedValue|JsonIgnore)\b(?!\s*\(\s*false)/.test(annotations)) continue;
    if (isRelation(m[4] ?? '', annotations, jpaEntity)) continue;
    fields.push(jsonName(annotations) ?? m[5] ?? '');
  }
  return fields.filter(Boolean);
}

/**
 * Records, classes with fields and Kotlin data classes of one file: name → field names (`...Base`
 * for a superclass whose fields are added where it is declared).
 * @example jvmShapes('public class Signup {\n  @NotBlank private String email;\n  private List<String> tags;\n}').get('Signup') // ['email', 'tags']
 */
export function jvmShapes(text: string): Map<string, string[]> {
  const shapes = new Map<string, string[]>();
  const code = maskCode(text, 'jvm');
  const bare = maskCode(text, 'jvm', { strings: true });
  for (const { match, index } of matchesWithLines(bare, /\brecord\s+(\w+)\s*(?:<[^>]*>\s*)?\(/g)) {
    const fields = recordFields(code, index + match[0].length - 1);
    if (fields.length > 0) shapes.set(match[1] ?? '', fields);
  }
  // Kotlin: a data class, or any class whose primary constructor declares `val`/`var` properties.
  for (const { match, index } of matchesWithLines(bare, /\bclass\s+(\w+)\s*(?:<[^>]*>\s*)?\(/g)) {
    const fields = dataClassFields(code, index + match[0].length - 1);
    if (fields.length > 0) shapes.set(match[1] ?? '', fields);
  }
  // Offset just past each line's end, to cut a class body out by its last line.
  const lineEnds = [...bare.matchAll(/\n/g)].map((m) => m.index ?? 0);
  for (const { match, line, index } of matchesWithLines(bare, /^[ \t]*(?:(?:public|protected|private|static|final|abstract)\s+)*class\s+(\w+)([^{]*)\{/gm)) {
    if (shapes.has(match[1] ?? '')) continue;
    const start = index;
    const stop = lineEnds[braceBlockEnd(bare, line) - 1] ?? bare.length;
    // The class's own annotations: between the previous declaration and the `class` keyword.
    const before = bare.slice(0, start);
    const head = bare.slice(Math.max(before.lastIndexOf(';'), before.lastIndexOf('}')) + 1, start);
    const jpaEntity = /@(?:jakarta\.persistence\.|javax\.persistence\.)?Entity\b/.test(head);
    const fields = classFields(code.slice(start, stop), bare.slice(start, stop), jpaEntity);
    const parent = /\bextends\s+(\w+)/.exec(match[2] ?? '')?.[1];
    const all = [...(parent ? [`...${parent}`] : []), ...fields];
    if (all.length > 0) shapes.set(match[1] ?? '', all);
  }
  return shapes;
}
