/**
 * What `this.name` stands for inside a class: the route-class layout many Express starters use
 * (`class UserRoute { path = '/users'; router = Router(); user = new UserController();
 * initializeRoutes() { this.router.post(`${this.path}`, this.user.createUser) } }`) declares its
 * router, its paths and its handlers as members, not as variables.
 */
import ts from 'typescript';
import { functionOf } from './ts-declarations.js';
import { unwrap, type FunctionLike, type ParsedSource } from './ts-source.js';

/** The class a node is written in (the innermost one). */
export function enclosingClass(node: ts.Node): ts.ClassLikeDeclaration | undefined {
  for (let current = node.parent; current; current = current.parent) if (ts.isClassLike(current)) return current;
  return undefined;
}

const memberName = (member: ts.ClassElement): string | undefined =>
  member.name && (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name) || ts.isPrivateIdentifier(member.name)) ? member.name.text : undefined;

/** `this.name` → `name`; anything else → undefined. */
export function thisMemberName(node: ts.Expression): string | undefined {
  const inner = unwrap(node);
  return ts.isPropertyAccessExpression(inner) && unwrap(inner.expression).kind === ts.SyntaxKind.ThisKeyword ? inner.name.text : undefined;
}

/** A class member as declared: its initializer (or the constructor's `this.name = …`) and its type annotation. */
export interface ClassProperty {
  readonly init?: ts.Expression;
  readonly type?: ts.TypeNode;
}

/**
 * A property of a class: `router = Router()`, `router: Router` assigned in the constructor, or a
 * constructor parameter property (`constructor(private readonly users = new UsersController())`).
 * @example classProperty(cls, 'router')?.init // the `Router()` call
 */
export function classProperty(cls: ts.ClassLikeDeclaration, name: string): ClassProperty | undefined {
  let found: { init?: ts.Expression; type?: ts.TypeNode } | undefined;
  for (const member of cls.members) {
    if (ts.isPropertyDeclaration(member) && memberName(member) === name) found = { init: member.initializer, type: member.type };
    if (!ts.isConstructorDeclaration(member)) continue;
    for (const param of member.parameters) {
      if (ts.isIdentifier(param.name) && param.name.text === name && param.modifiers?.length) found = { init: param.initializer, type: param.type };
    }
    for (const statement of member.body?.statements ?? []) {
      if (!ts.isExpressionStatement(statement) || !ts.isBinaryExpression(statement.expression)) continue;
      const { left, operatorToken, right } = statement.expression;
      if (operatorToken.kind === ts.SyntaxKind.EqualsToken && thisMemberName(left) === name) found = { ...found, init: right };
    }
  }
  return found;
}

/** The member `this.name` refers to where `node` is written. */
export function thisProperty(node: ts.Expression): ClassProperty | undefined {
  const name = thisMemberName(node);
  const cls = name === undefined ? undefined : enclosingClass(node);
  return cls && name !== undefined ? classProperty(cls, name) : undefined;
}

/**
 * A class's method, or a property holding a function (`create = async (req, res) => …`).
 * @example classMember(src, controllerClass, 'createUser') // the arrow function of `createUser = async (req, res) => …`
 */
export function classMember(src: ParsedSource, cls: ts.ClassLikeDeclaration, property: string): FunctionLike | undefined {
  for (const member of cls.members) {
    if (memberName(member) !== property) continue;
    if (ts.isMethodDeclaration(member)) return member;
    if (ts.isPropertyDeclaration(member) && member.initializer) return functionOf(src, member.initializer);
  }
  return undefined;
}

/** `this.createPost` inside a class whose member `createPost` is a function: that function. */
export function thisMethod(src: ParsedSource, node: ts.Expression): FunctionLike | undefined {
  const name = thisMemberName(node);
  const cls = name === undefined ? undefined : enclosingClass(node);
  return cls && name !== undefined ? classMember(src, cls, name) : undefined;
}
