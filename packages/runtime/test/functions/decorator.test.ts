/**
 * `@Idempotent` proven in both decorator dialects: one service source is type-checked and then
 * compiled by the TypeScript compiler API twice — TC39 standard decorators
 * (`experimentalDecorators: false`) and legacy ones (`experimentalDecorators: true`, NestJS) —
 * and each emitted JavaScript module is run on Node. The decorator is passed in as a parameter,
 * so the emitted code runs the real src function, not a copy.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { createIdempotency, type Idempotency } from '../../src/core/engine.js';
import { FingerprintMismatchError } from '../../src/core/errors.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';
import { Idempotent } from '../../src/functions/index.js';

const virtualPath = resolve(__dirname, 'virtual-service.ts');

const SERVICE = `
import type { Idempotency } from '../../src/core/engine.js';
import type { Idempotent as IdempotentFn } from '../../src/functions/index.js';

export interface ChargeInput { orderId: string; tenantId: string; amount: number }

export function defineServices(Idempotent: typeof IdempotentFn, shared: Idempotency) {
  class PaymentsService {
    runs = 0;
    constructor(readonly idempotency: Idempotency) {}

    @Idempotent<[ChargeInput]>({ idempotency: (self: PaymentsService) => self.idempotency, key: 'orderId', scope: (input) => input.tenantId })
    async charge(input: ChargeInput): Promise<{ id: string; run: number }> {
      this.runs++;
      return { id: 'ch_' + input.orderId, run: this.runs };
    }

    @Idempotent<[ChargeInput]>({ idempotency: shared, key: (input) => input.orderId, scope: 'global', name: 'refund' })
    async refund(input: ChargeInput): Promise<number> {
      this.runs++;
      return input.amount;
    }
  }
  class SubService extends PaymentsService {}
  return { PaymentsService, SubService };
}
`;

const BAD_PATH = SERVICE.replace("key: 'orderId'", "key: 'orderIdd'");

function compilerOptions(legacy: boolean): ts.CompilerOptions {
  return {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
    lib: ['lib.es2023.d.ts', 'lib.decorators.d.ts', 'lib.decorators.legacy.d.ts'],
    experimentalDecorators: legacy,
    // the project's tsconfig enables this too; it only applies to legacy decorators
    emitDecoratorMetadata: legacy,
  };
}

/** Type-checks the virtual service against the real sources; returns the diagnostics' texts. */
function typeCheck(source: string, legacy: boolean): string[] {
  const options = compilerOptions(legacy);
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.fileExists = (file) => file === virtualPath || ts.sys.fileExists(file);
  host.readFile = (file) => (file === virtualPath ? source : readFile(file));
  host.getSourceFile = (file, language, onError) =>
    file === virtualPath ? ts.createSourceFile(file, source, language) : getSourceFile(file, language, onError);
  const program = ts.createProgram([virtualPath], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.file?.fileName === virtualPath || diagnostic.file === undefined)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

const outDir = mkdtempSync(join(tmpdir(), 'idem-decorators-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

/** Emits the service with TypeScript itself and imports the JavaScript it produced. */
async function compileAndLoad(legacy: boolean): Promise<{ code: string; module: Record<string, unknown> }> {
  const { outputText } = ts.transpileModule(SERVICE, {
    compilerOptions: { ...compilerOptions(legacy), module: ts.ModuleKind.ES2022, noEmit: false },
    fileName: 'service.ts',
  });
  const file = join(outDir, `service-${legacy ? 'legacy' : 'tc39'}.mjs`);
  writeFileSync(file, outputText);
  return { code: outputText, module: (await import(/* @vite-ignore */ pathToFileURL(file).href)) as Record<string, unknown> };
}

interface ChargeInput {
  orderId: string;
  tenantId: string;
  amount: number;
}
interface Service {
  runs: number;
  charge(input: ChargeInput): Promise<{ id: string; run: number }>;
  refund(input: ChargeInput): Promise<number>;
}
type ServiceClass = new (idempotency: Idempotency) => Service;

describe.each([
  { dialect: 'TC39 standard decorators', legacy: false, marker: '__esDecorate' },
  { dialect: 'legacy experimentalDecorators', legacy: true, marker: '__decorate' },
])('@Idempotent as $dialect', ({ legacy, marker }) => {
  it('type-checks, and a wrong path is a compile error', () => {
    expect(typeCheck(SERVICE, legacy)).toEqual([]);
    const errors = typeCheck(BAD_PATH, legacy);
    expect(errors.join('\n')).toMatch(/orderIdd/);
  });

  it('compiled by TypeScript and run on Node: once per key, replay, per-class namespace', async () => {
    const { code, module } = await compileAndLoad(legacy);
    expect(code).toContain(marker); // proves which emit ran
    const store = createMemoryStore();
    const idempotency = createIdempotency({ store });
    const { PaymentsService, SubService } = (module.defineServices as (d: typeof Idempotent, i: Idempotency) => Record<string, ServiceClass>)(
      Idempotent,
      idempotency,
    );
    const service = new PaymentsService!(idempotency);
    const input = { orderId: 'o-1', tenantId: 't-1', amount: 10 };
    const first = await service.charge(input);
    const replay = await service.charge({ ...input });
    expect(first).toEqual({ id: 'ch_o-1', run: 1 });
    expect(replay).toEqual(first);
    expect(service.runs).toBe(1);
    await expect(service.charge({ ...input, amount: 11 })).rejects.toBeInstanceOf(FingerprintMismatchError);
    // a second instance (another process, same store) replays too
    const other = new SubService!(idempotency);
    expect(await other.charge(input)).toEqual(first);
    expect(other.runs).toBe(0);
    expect(await service.refund(input)).toBe(10);
    expect(await other.refund(input)).toBe(10);
    expect(service.runs + other.runs).toBe(2);
    const keys = [...store.records.values()].map((record) => `${record.scope}/${record.key}`).sort();
    // the declaring class names the namespace, also when a subclass calls the inherited method
    expect(keys).toEqual(['global/refund:o-1', 't-1/PaymentsService.charge:o-1']);
  });
});

describe('@Idempotent misuse', () => {
  it('refuses a missing engine at decoration time', () => {
    expect(() => Idempotent({ idempotency: undefined as never, key: 'id', scope: 's' })).toThrow(/idempotency/);
  });
});
