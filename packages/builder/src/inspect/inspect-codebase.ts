/**
 * Inspects a codebase before any question is asked: manifests first (what the project declares),
 * then every source file through its language's scanner (what the code does), then one
 * conclusion per stack question. Read-only; bounded in files and bytes.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { emptyManifestFindings, readManifest } from './manifests.js';
import { scanDotnet } from './patterns/dotnet.js';
import { scanGo } from './patterns/go.js';
import { scanJvm } from './patterns/jvm.js';
import { scanPhp } from './patterns/php.js';
import { scanPython } from './patterns/python.js';
import { scanRuby } from './patterns/ruby.js';
import { chooseBroker, chooseDatabase, chooseFramework, chooseLanguage } from './summarize.js';
import { emptyFindings, type EndpointFinding, type FileFindings, type Inspection, type Language, type ScanResult } from './types.js';
import { walkSourceFiles, type WalkLimits } from './walk.js';

type Scanner = (relPath: string, text: string) => ScanResult;

const LANGUAGE_BY_EXTENSION: Record<string, Language> = {
  ts: 'typescript', tsx: 'typescript', mts: 'typescript', cts: 'typescript', js: 'javascript', jsx: 'javascript', mjs: 'javascript',
  cjs: 'javascript', py: 'python', go: 'go', java: 'java', kt: 'kotlin', cs: 'csharp', rb: 'ruby', php: 'php',
};

const PATTERN_SCANNERS: Partial<Record<Language, Scanner>> = {
  python: scanPython, go: scanGo, java: scanJvm, kotlin: scanJvm, csharp: scanDotnet, ruby: scanRuby, php: scanPhp,
};

function merge(into: FileFindings, from: FileFindings): void {
  into.endpoints.push(...from.endpoints);
  into.paymentCalls.push(...from.paymentCalls);
  into.consumers.push(...from.consumers);
  into.schedulers.push(...from.schedulers);
  into.databases.push(...from.databases);
  into.brokers.push(...from.brokers);
  into.frameworks.push(...from.frameworks);
}

/** Loads the TS/JS scanner, which needs the `typescript` package, only when there is TS/JS to read. */
async function loadTypeScriptScanner(notes: string[]): Promise<typeof import('./ts/scan-typescript.js') | undefined> {
  try {
    return await import('./ts/scan-typescript.js');
  } catch (error) {
    notes.push(`TypeScript/JavaScript files were not analysed: the "typescript" package could not be loaded (${(error as Error).message}).`);
    return undefined;
  }
}

/**
 * Endpoints typed with a DTO get that DTO's fields; handlers defined in another file (Go) get the
 * body type that file saw them decode.
 */
function resolveBodyTypes(endpoints: EndpointFinding[], shapes: ReadonlyMap<string, string[]>, handlerTypes: ReadonlyMap<string, string>): EndpointFinding[] {
  return endpoints.map((endpoint) => {
    const bodyType = endpoint.bodyType ?? (endpoint.handler ? handlerTypes.get(endpoint.handler) : undefined);
    const declared = bodyType ? shapes.get(bodyType) : undefined;
    if (!declared) return endpoint;
    return { ...endpoint, bodyType, bodyFields: [...new Set([...endpoint.bodyFields, ...declared])] };
  });
}

function dedupeEndpoints(endpoints: readonly EndpointFinding[]): EndpointFinding[] {
  const seen = new Set<string>();
  return endpoints.filter((e) => {
    const key = `${e.method} ${e.route} ${e.location}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Inspects `dir` and reports the stack and every critical action found, each with `path:line`.
 * @example
 * const inspection = await inspectCodebase('./services/payments-api');
 * inspection.framework?.value;          // 'express'
 * inspection.endpoints.map((e) => `${e.method} ${e.route} (${e.location})`);
 */
export async function inspectCodebase(dir: string, limits: WalkLimits = {}): Promise<Inspection> {
  const root = resolve(dir);
  const notes: string[] = [];
  const walked = walkSourceFiles(root, limits);
  if (walked.skippedLarge > 0) notes.push(`${walked.skippedLarge} file(s) over the size limit were not read.`);
  if (walked.truncated && walked.skippedLarge === 0) notes.push(`Stopped after ${walked.files.length} files; findings may be incomplete.`);

  const manifests = emptyManifestFindings();
  const read = (absPath: string): string => readFileSync(absPath, 'utf8');
  for (const file of walked.files) {
    if (/\.(json|toml|txt|xml|gradle|kts|csproj|mod|ya?ml|properties|prisma)$|(^|\/)Gemfile$/.test(file.relPath)) {
      readManifest(manifests, file, read(file.absPath));
    }
  }

  const fileCounts = new Map<Language, { count: number; first: string }>();
  const sourceFiles = walked.files.flatMap((file) => {
    const language = LANGUAGE_BY_EXTENSION[file.relPath.slice(file.relPath.lastIndexOf('.') + 1)];
    if (!language) return [];
    const entry = fileCounts.get(language) ?? { count: 0, first: file.relPath };
    fileCounts.set(language, { ...entry, count: entry.count + 1 });
    return [{ file, language }];
  });

  const hints = { framework: chooseFramework([], manifests.frameworks)?.value, broker: chooseBroker(manifests.brokers, [])?.value };
  const needsTs = sourceFiles.some((s) => s.language === 'typescript' || s.language === 'javascript');
  const tsScanner = needsTs ? await loadTypeScriptScanner(notes) : undefined;
  const code = emptyFindings();
  const shapes = new Map<string, string[]>();
  const handlerTypes = new Map<string, string>();
  for (const { file, language } of sourceFiles) {
    const scan: Scanner | undefined = language === 'typescript' || language === 'javascript'
      ? tsScanner && ((relPath, text) => tsScanner.scanTypeScript(relPath, text, hints))
      : PATTERN_SCANNERS[language];
    if (!scan) continue;
    try {
      const result = scan(file.relPath, read(file.absPath));
      merge(code, result.findings);
      for (const [name, fields] of result.shapes) if (!shapes.has(name)) shapes.set(name, fields);
      for (const [name, type] of result.handlerBodyTypes ?? []) if (!handlerTypes.has(name)) handlerTypes.set(name, type);
    } catch (error) {
      notes.push(`${file.relPath} could not be analysed: ${(error as Error).message}`);
    }
  }

  const endpoints = dedupeEndpoints(resolveBodyTypes(code.endpoints, shapes, handlerTypes));
  const frameworks = [...manifests.frameworks, ...code.frameworks];
  const databases = [...code.databases, ...manifests.databases];
  const brokers = [...code.brokers, ...manifests.brokers];
  const languages = manifests.languages;
  const language = chooseLanguage(fileCounts, languages);
  const framework = chooseFramework(endpoints, frameworks);
  const database = chooseDatabase(databases);
  const broker = chooseBroker(brokers, code.consumers);
  const providers = [...manifests.providers];
  for (const call of code.paymentCalls) {
    if (!providers.some((p) => p.value === call.provider)) providers.push({ value: call.provider, location: call.location, evidence: call.call });
  }
  // The top-most manifest names the project; nested ones are packages inside it.
  const projectName = [...manifests.projectNames].sort((a, b) => a.location.split('/').length - b.location.split('/').length)[0];
  const goTests = walked.files.find((f) => f.relPath.endsWith('_test.go'));
  const testFramework = manifests.testFrameworks[0] ?? (goTests ? { value: 'go-test', location: `${goTests.relPath}:1`, evidence: 'Go test file' } : undefined);
  return {
    dir: root,
    filesScanned: walked.files.length,
    truncated: walked.truncated,
    ...(language ? { language } : {}),
    ...(framework ? { framework } : {}),
    ...(database ? { database } : {}),
    ...(broker ? { broker } : {}),
    ...(testFramework ? { testFramework } : {}),
    ...(projectName ? { projectName } : {}),
    ...(manifests.packageManagers[0] ? { packageManager: manifests.packageManagers[0] } : {}),
    ...(manifests.instances[0] ? { instances: manifests.instances[0] } : {}),
    paymentProviders: providers,
    endpoints,
    paymentCalls: code.paymentCalls,
    consumers: code.consumers,
    webhooks: endpoints.filter((e) => e.webhook),
    schedulers: code.schedulers,
    evidence: { languages, frameworks, databases, brokers },
    notes,
  };
}
