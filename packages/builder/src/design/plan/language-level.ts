/**
 * What the project's language level means for the generated code: how TypeScript writes relative
 * imports and driver imports, the Java release, the Go module path and version, the oldest Python.
 * The templates' own floors are stated here once; a project below one is told, never silently
 * handed code that does not compile there.
 */
import type { LanguageLevel } from '../../answers.js';
import type { CodeLang } from './stack.js';

/** The oldest release the Java templates compile at (no records, switch expressions or text blocks). */
export const JAVA_TEMPLATE_FLOOR = 11;
/** The Java release used when the build files name none: Spring Boot 3's minimum. */
export const JAVA_DEFAULT_RELEASE = 17;
/** The oldest Go the Go templates build with (`any`, strings.Cut, the 1.19 standard library). */
export const GO_TEMPLATE_FLOOR = '1.19';
/** The oldest Python the Python templates run on (typing.Protocol). */
export const PYTHON_TEMPLATE_FLOOR = '3.8';

export interface LevelPlan {
  /** The level as read, with its locations and assumptions; absent when nothing was read. */
  readonly read?: LanguageLevel;
  /** `.js` under node16/nodenext (ES module resolution requires it); none under node10 and bundler. */
  readonly relativeImportExtension: '.js' | '';
  /** `cjs` when the files compile to CommonJS: drivers are then imported by name, which works without esModuleInterop. */
  readonly moduleFormat: 'esm' | 'cjs';
  readonly javaRelease: number;
  readonly goVersion: string;
  /** The project's module path, when go.mod names it: the package is `<module>/idempotency`. */
  readonly goModule?: string;
  readonly pythonMinimum?: string;
  /** Sentences for the document's stack notes. */
  readonly notes: readonly string[];
}

/** Numeric compare of dotted versions: `1.9` < `1.19`. */
function versionBelow(a: string, b: string): boolean {
  const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
  for (let i = 0; i < Math.max(x.length, y.length); i += 1) {
    if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) < (y[i] ?? 0);
  }
  return false;
}

function typescriptPlan(ts: NonNullable<LanguageLevel['typescript']>, notes: string[]): Pick<LevelPlan, 'relativeImportExtension' | 'moduleFormat'> {
  // No tsconfig read: ES modules with `.js` imports compile under node16/nodenext and bundlers alike.
  if (!ts.module && !ts.moduleResolution) return { relativeImportExtension: '.js', moduleFormat: 'esm' };
  const resolution = ts.moduleResolution ?? ts.module;
  const nodeNext = resolution === 'node16' || resolution === 'nodenext';
  const moduleFormat = ts.module === 'commonjs' || (nodeNext && ts.packageType !== 'module') ? 'cjs' : 'esm';
  if (!nodeNext) {
    notes.push(`The project compiles with module ${ts.module ?? 'unset'} and moduleResolution ${resolution ?? 'unset'}: the generated files import each other without extensions (\`./idempotency\`), as ts-jest and bundlers resolve them; node16/nodenext would need \`./idempotency.js\`.`);
  }
  if (moduleFormat === 'cjs') {
    notes.push('The generated files compile to CommonJS here: database drivers are imported by name (`import { Pool } from \'pg\'`), which works with or without esModuleInterop.');
  }
  return { relativeImportExtension: nodeNext ? '.js' : '', moduleFormat };
}

/**
 * The plan's reading of the language level for the language the code is generated in.
 * @example planLevel({ typescript: { module: 'commonjs', moduleResolution: 'node10' }, locations: {}, assumptions: [] }, 'typescript').relativeImportExtension // ''
 */
export function planLevel(read: LanguageLevel | undefined, language: CodeLang): LevelPlan {
  const notes: string[] = [];
  let ts: Pick<LevelPlan, 'relativeImportExtension' | 'moduleFormat'> = { relativeImportExtension: '.js', moduleFormat: 'esm' };
  if (language === 'typescript' && read?.typescript) ts = typescriptPlan(read.typescript, notes);

  let javaRelease = read?.java?.release ?? JAVA_DEFAULT_RELEASE;
  if (language === 'java' && javaRelease < JAVA_TEMPLATE_FLOOR) {
    notes.push(`The project builds at Java ${javaRelease}; the generated Java needs release ${JAVA_TEMPLATE_FLOOR} (String.repeat, Files.readString, InputStream.readNBytes): compile the idempotency package at ${JAVA_TEMPLATE_FLOOR}, or raise the project's release.`);
    javaRelease = JAVA_TEMPLATE_FLOOR;
  } else if (language === 'java' && read?.java) {
    notes.push(`The generated Java compiles with \`javac --release ${javaRelease}\`, the project's release${javaRelease < 15 ? ' (so project data is a concatenated string, not a text block)' : ''}.`);
  }

  let goVersion = read?.go?.version ?? GO_TEMPLATE_FLOOR;
  if (versionBelow(goVersion, GO_TEMPLATE_FLOOR)) {
    if (language === 'go') notes.push(`go.mod says go ${goVersion}; the generated package needs Go ${GO_TEMPLATE_FLOOR} (\`any\`, strings.Cut): its go.mod says ${GO_TEMPLATE_FLOOR}, and the project's go directive must be raised to import it.`);
    goVersion = GO_TEMPLATE_FLOOR;
  }
  if (language === 'go' && read?.go?.module) {
    notes.push(`The generated package's import path is \`${read.go.module}/idempotency\`: put it in the folder \`idempotency/\` of the module (then delete its go.mod), or keep it as a nested module under the same path.`);
  }

  const pythonMinimum = read?.python?.minimum;
  if (language === 'python' && pythonMinimum && versionBelow(pythonMinimum, PYTHON_TEMPLATE_FLOOR)) {
    notes.push(`The project supports Python ${pythonMinimum}; the generated package needs ${PYTHON_TEMPLATE_FLOOR} (typing.Protocol).`);
  }
  return {
    ...(read ? { read } : {}),
    ...ts,
    javaRelease,
    goVersion,
    ...(read?.go?.module ? { goModule: read.go.module } : {}),
    ...(pythonMinimum ? { pythonMinimum } : {}),
    notes,
  };
}

const LABELS: Record<string, string> = {
  'typescript.module': 'module',
  'typescript.moduleResolution': 'moduleResolution',
  'typescript.target': 'target',
  'typescript.packageType': 'package.json type',
  'java.release': 'Java release',
  'go.version': 'go',
  'go.module': 'module',
  'python.minimum': 'requires-python ≥',
};

/**
 * One line per setting read, each with the `path:line` it came from (or "default" / "assumed").
 * @example levelSummary(level) // 'module commonjs (tsconfig.json:3); moduleResolution node10 (default); target es2021 (tsconfig.json:9)'
 */
export function levelSummary(level: LanguageLevel): string {
  const values: Record<string, string | number | undefined> = {
    'typescript.module': level.typescript?.module,
    'typescript.moduleResolution': level.typescript?.moduleResolution,
    'typescript.target': level.typescript?.target,
    'typescript.packageType': level.typescript?.packageType,
    'java.release': level.java?.release,
    'go.version': level.go?.version,
    'go.module': level.go?.module,
    'python.minimum': level.python?.minimum,
  };
  return Object.entries(values)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${LABELS[name]} ${value} (${level.locations[name] ?? 'assumed'})`)
    .join('; ');
}
