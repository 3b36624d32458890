/**
 * Body shapes (DTO classes, interfaces, validation schemas) gathered in walk order, with the files
 * the pre-filter deferred indexed by the names they may declare. A deferred file is parsed only
 * when an endpoint's body type names something it may declare, and the first declaration in walk
 * order still wins — the same answer as if every file had been parsed.
 */
import { declaredNames } from './prefilter.js';

type Shapes = ReadonlyMap<string, readonly string[]>;

/**
 * `...Name!a!b` (TS `OmitType(Name, ['a', 'b'])`, ts-nest-shapes.ts) stands for Name's fields,
 * its own bases expanded, but `a` and `b`.
 */
const OMITTED = '!';

/** Fields of a shape with every `...Base` expanded (cycles cut); undefined for an unknown shape. */
function flatFields(name: string, shapes: ReadonlyMap<string, readonly string[]>, seen: Set<string>): string[] | undefined {
  const [base = '', ...omitted] = name.split(OMITTED);
  const fields = shapes.get(base);
  if (!fields || seen.has(base)) return undefined;
  seen.add(base);
  const flat = fields.flatMap((field) => (field.startsWith('...') ? flatFields(field.slice(3), shapes, seen) ?? [] : [field]));
  seen.delete(base);
  return [...new Set(flat)].filter((field) => !omitted.includes(field));
}

/** Adds a shape for every `...Name!a` entry, so that it expands as any other base does. */
function addOmissions(shapes: Map<string, string[]>): void {
  const wanted = [...shapes.values()].flat().filter((field) => field.startsWith('...') && field.includes(OMITTED)).map((field) => field.slice(3));
  for (const name of new Set(wanted)) {
    const fields = flatFields(name, shapes, new Set());
    if (fields && fields.length > 0) shapes.set(name, fields);
  }
}

export interface ShapeIndex {
  /** Shapes a scanned file declares; `order` is the file's position in the walk. */
  add(order: number, shapes: Shapes): void;
  /** A file not parsed: remembered by the names it may declare, its text not kept. */
  defer(order: number, relPath: string, text: string): void;
  /**
   * The shapes for `needed` names (and the `...Base` names their fields extend), parsing deferred
   * files through `load` as needed; returns the merged map and how many files were loaded.
   */
  resolve(needed: Iterable<string>, load: (relPath: string) => Shapes | undefined): { shapes: Map<string, string[]>; loaded: number };
}

/**
 * A fresh index.
 * @example
 * const index = createShapeIndex();
 * index.defer(7, 'src/dto.ts', 'export class PayDto { amount!: number }');
 * index.resolve(['PayDto'], (path) => parseShapes(path)).shapes.get('PayDto'); // ['amount']
 */
export function createShapeIndex(): ShapeIndex {
  const declared: Array<{ order: number; shapes: Shapes }> = [];
  const deferredByName = new Map<string, Array<{ order: number; relPath: string }>>();
  const loadedOrders = new Set<number>();

  const winner = (name: string): readonly string[] | undefined => {
    let best: { order: number; fields: readonly string[] } | undefined;
    for (const { order, shapes } of declared) {
      const fields = shapes.get(name);
      if (fields && (!best || order < best.order)) best = { order, fields };
    }
    return best?.fields;
  };

  const add = (order: number, shapes: Shapes): void => {
    if (shapes.size > 0) declared.push({ order, shapes });
  };

  return {
    add,
    defer(order, relPath, text) {
      for (const name of declaredNames(text)) {
        const list = deferredByName.get(name) ?? [];
        list.push({ order, relPath });
        deferredByName.set(name, list);
      }
    },
    resolve(needed, load) {
      const queue = [...needed];
      const seen = new Set<string>();
      let loaded = 0;
      while (queue.length > 0) {
        const name = queue.pop() as string;
        if (seen.has(name)) continue;
        seen.add(name);
        for (const { order, relPath } of deferredByName.get(name) ?? []) {
          if (loadedOrders.has(order)) continue;
          loadedOrders.add(order);
          loaded += 1;
          const shapes = load(relPath);
          if (shapes) add(order, shapes);
        }
        for (const field of winner(name) ?? []) if (field.startsWith('...')) queue.push(field.slice(3).split(OMITTED)[0] ?? '');
      }
      const shapes = new Map<string, string[]>();
      for (const { shapes: own } of [...declared].sort((a, b) => a.order - b.order)) {
        for (const [name, fields] of own) if (!shapes.has(name)) shapes.set(name, [...fields]);
      }
      addOmissions(shapes);
      return { shapes, loaded };
    },
  };
}
