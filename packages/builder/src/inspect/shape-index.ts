/**
 * Body shapes (DTO classes, interfaces, validation schemas) gathered in walk order, with the files
 * the pre-filter deferred indexed by the names they may declare and by their paths. A deferred
 * file is parsed only when a body type's lookup reaches it — by a bare name it may declare, or by
 * an import naming the file (shape-refs.ts) — and the first declaration of a bare name in walk
 * order still wins: the same answer as if every file had been parsed.
 */
import { declaredNames } from './prefilter.js';
import { resolveShape, type Shapes } from './shape-refs.js';

export interface ShapeIndex {
  /** Shapes a scanned file declares; `order` is the file's position in the walk. */
  add(order: number, shapes: Shapes): void;
  /** A file not parsed: remembered by its path and the names it may declare, its text not kept. */
  defer(order: number, relPath: string, text: string): void;
  /**
   * The shapes the `needed` body types reach (the `...Base` shapes they extend, the files their
   * imports name), parsing deferred files through `load` as needed; returns the merged map and
   * how many files were loaded.
   */
  resolve(needed: Iterable<string>, load: (relPath: string) => Shapes | undefined): { shapes: Map<string, string[]>; loaded: number };
}

/** Rounds of loading: each round's new files may re-export or extend shapes in further files. */
const MAX_ROUNDS = 8;

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
  const deferredByPath = new Map<string, number>();
  const loadedOrders = new Set<number>();

  const add = (order: number, shapes: Shapes): void => {
    if (shapes.size > 0) declared.push({ order, shapes });
  };
  // Qualified keys are one file's own; a bare name is the first declaration in walk order.
  const merged = (): Map<string, string[]> => {
    const shapes = new Map<string, string[]>();
    for (const { shapes: own } of [...declared].sort((a, b) => a.order - b.order)) {
      for (const [name, fields] of own) if (!shapes.has(name)) shapes.set(name, [...fields]);
    }
    return shapes;
  };

  return {
    add,
    defer(order, relPath, text) {
      deferredByPath.set(relPath, order);
      for (const name of declaredNames(text)) {
        const list = deferredByName.get(name) ?? [];
        list.push({ order, relPath });
        deferredByName.set(name, list);
      }
    },
    resolve(needed, load) {
      const lists = [...needed];
      let loaded = 0;
      const loadOnce = (order: number, relPath: string): boolean => {
        if (loadedOrders.has(order)) return false;
        loadedOrders.add(order);
        loaded += 1;
        const shapes = load(relPath);
        if (shapes) add(order, shapes);
        return true;
      };
      for (let round = 0; ; round += 1) {
        const shapes = merged();
        if (round >= MAX_ROUNDS) return { shapes, loaded };
        // Every key a lookup reads names the file (`X@file`) or the bare name (`X`) that may hold it.
        const touched = new Set<string>();
        for (const list of lists) resolveShape(list, shapes, (key) => touched.add(key));
        let fresh = false;
        for (const key of touched) {
          const at = key.indexOf('@');
          if (at < 0) {
            for (const { order, relPath } of deferredByName.get(key) ?? []) fresh = loadOnce(order, relPath) || fresh;
            continue;
          }
          const relPath = key.slice(at + 1);
          const order = deferredByPath.get(relPath);
          if (order !== undefined) fresh = loadOnce(order, relPath) || fresh;
        }
        if (!fresh) return { shapes, loaded };
      }
    },
  };
}
