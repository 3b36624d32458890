/**
 * The fields a DTO inherits, as shape entries the shape index resolves once every file is known:
 * `class A extends Base` → `...Base`; Nest's mapped types from `@nestjs/swagger` or
 * `@nestjs/mapped-types`: `PartialType(X)` → `...X`, `PickType(X, ['a'] as const)` → `a`,
 * `OmitType(X, ['note'] as const)` → `...X!note` (X's fields but `note`, see shape-refs.ts),
 * `IntersectionType(A, B)` → `...A`, `...B`.
 */
import ts from 'typescript';
import { unwrap } from './ts-source.js';

/** Separates a shape's name from the fields it leaves out: `...CreateOrderDto!note`. */
export const OMITTED_FIELD_MARK = '!';

/** How deep mapped types are nested (`PartialType(OmitType(X, [...]))`). */
const MAX_NESTING = 4;

/** `['a', 'b'] as const` → `['a', 'b']`; undefined unless every key is a literal. */
function literalKeys(node: ts.Expression | undefined): string[] | undefined {
  const list = node ? unwrap(node) : undefined;
  if (!list || !ts.isArrayLiteralExpression(list)) return undefined;
  const keys = list.elements.map((element) => {
    const key = unwrap(element);
    return ts.isStringLiteral(key) || ts.isNoSubstitutionTemplateLiteral(key) ? key.text : undefined;
  });
  return keys.every((key) => key !== undefined) ? keys as string[] : undefined;
}

/** The shape entries a base-class expression stands for; none when it is not understood (never a guess). */
function baseEntries(node: ts.Expression, depth = 0): string[] {
  const inner = unwrap(node);
  if (ts.isIdentifier(inner)) return [`...${inner.text}`];
  if (ts.isPropertyAccessExpression(inner)) return [`...${inner.name.text}`];
  if (!ts.isCallExpression(inner) || depth > MAX_NESTING) return [];
  const callee = unwrap(inner.expression);
  const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : '';
  const [first, second] = inner.arguments;
  if (name === 'PartialType' && first) return baseEntries(first, depth + 1);
  if (name === 'IntersectionType') return inner.arguments.flatMap((arg) => baseEntries(arg, depth + 1));
  // Picked keys are the fields, whatever the base declares beside them.
  if (name === 'PickType') return literalKeys(second) ?? [];
  if (name === 'OmitType' && first) {
    const omitted = literalKeys(second);
    if (!omitted) return [];
    return baseEntries(first, depth + 1).flatMap((entry) => {
      if (entry.startsWith('...')) return [[entry, ...omitted].join(OMITTED_FIELD_MARK)];
      return omitted.includes(entry) ? [] : [entry];
    });
  }
  return [];
}

/**
 * The entries a class or interface inherits through its `extends` clause.
 * @example heritageFields(parse('class U extends PartialType(CreateDto) {}')) // ['...CreateDto']
 */
export function heritageFields(node: ts.ClassDeclaration | ts.InterfaceDeclaration): string[] {
  return (node.heritageClauses ?? [])
    .filter((clause) => clause.token === ts.SyntaxKind.ExtendsKeyword)
    .flatMap((clause) => clause.types.flatMap((type) => baseEntries(type.expression)));
}
