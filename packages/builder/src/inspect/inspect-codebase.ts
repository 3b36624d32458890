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
import { mayDeclareSpringBasePath, type SpringConfigFile } from './patterns/jvm-spring-config.js';
import { finishSpringRoutes } from './patterns/jvm-spring-routes.js';
import { scanPhp } from './patterns/php.js';
import { linkLaravelRoutes } from './patterns/php-controllers.js';
import { scanPython, scanPythonFacts } from './patterns/python.js';
import { pythonMayHoldFindings } from './patterns/python-prefilter.js';
import { qualifyPythonShapes } from './patterns/python-shape-imports.js';
import { scanRuby } from './patterns/ruby.js';
import { linkRailsControllers } from './patterns/ruby-controllers.js';
import { CALLER_HINT, keepMutating, readClientFacts, settleMethods } from './any-method-routes.js';
import { assessCosts } from './cost.js';
import { koaPrincipal } from './koa-principal.js';
import { assessExistingProtection } from './existing-assessment.js';
import { scanExistingProtection, type ProtectionScan } from './existing-protection.js';
import { resolveJvmChannels } from './patterns/jvm-listeners.js';
import { finishCeleryTasks } from './patterns/python-celery.js';
import { finishPythonSchedules } from './patterns/python-schedules.js';
import { scanScheduleManifest } from './schedule-manifests.js';
import { readLanguageLevel } from './language-level.js';
import { modulePathsOf, type ConfigFile } from './module-paths.js';
import { triage } from './prefilter.js';
import { normaliseRoute, PRINTABLE_ROUTE, resolveRoutes, type RouteFacts } from './route-graph.js';
import { createShapeIndex } from './shape-index.js';
import { resolveShape, shapeName, type Shapes } from './shape-refs.js';
import { chooseBroker, chooseDatabase, chooseFramework, chooseLanguage, languageOfBackend } from './summarize.js';
import { emptyFindings, isPlanProvider, type EndpointFinding, type FileFindings, type Inspection, type Language, type ScanResult, type SchedulerFinding } from './types.js';
import { walkSourceFiles, type WalkLimits } from './walk.js';

type Scanner = (relPath: string, text: string) => ScanResult;

const MODULE_CONFIG = /(^|\/)(tsconfig|jsconfig|package)\.json$/;

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

function dirOf(relPath: string): string {
  return relPath.includes('/') ? relPath.slice(0, relPath.lastIndexOf('/')) : '.';
}

/** The body type a handler decodes: the one in the route's own package, else the only one of that name (never a homonym). */
function handlerType(endpoint: EndpointFinding, handlerTypes: ReadonlyMap<string, ReadonlyArray<{ dir: string; type: string }>>): string | undefined {
  const candidates = endpoint.handler ? handlerTypes.get(endpoint.handler) ?? [] : [];
  const local = candidates.find((c) => c.dir === dirOf(endpoint.location.replace(/:\d+$/, '')));
  // The handler was found in the route's own file: what it decodes is known, even when that is nothing.
  if (endpoint.span && (endpoint.framework === 'gin' || endpoint.framework === 'net-http')) return local?.type;
  return local?.type ?? (candidates.length === 1 ? candidates[0]?.type : undefined);
}

/**
 * Endpoints typed with a DTO get that DTO's fields; handlers defined in another file (Go) get the
 * body type that file saw them decode. A `A|B` body type lists candidates (typed Python
 * parameters); the first that is a known shape wins, and a type that is no known shape is dropped
 * rather than shown as if it were the body. A candidate qualified by the files its import names
 * (`UserCreate@app/schemas/users.py`, Go's `tokenRequest@auth/pwdless`; shape-refs.ts) takes that
 * module's shape and is shown by its name.
 */
function resolveBodyTypes(endpoints: EndpointFinding[], shapes: Shapes, handlerTypes: ReadonlyMap<string, ReadonlyArray<{ dir: string; type: string }>>): EndpointFinding[] {
  return endpoints.map((endpoint) => {
    const written = endpoint.bodyType ?? handlerType(endpoint, handlerTypes);
    const candidates = (written ?? '').split('|').filter(Boolean);
    const declared = written ? resolveShape(written, shapes) : undefined;
    const { bodyType: _dropped, ...rest } = endpoint;
    if (!declared) {
      if (candidates.length > 1 || ['fastapi', 'flask', 'django'].includes(endpoint.framework)) return rest;
      return candidates[0] ? { ...rest, bodyType: shapeName(candidates[0]) } : endpoint;
    }
    return { ...rest, bodyType: shapeName(declared.candidate), bodyFields: [...new Set([...endpoint.bodyFields, ...declared.fields])] };
  });
}

// `password1`/`password2` (Django's confirmation pair) are passwords too.
const SECRET_FIELD = /pass(word|wd|phrase)?\d?$|^pwd$|secret|token|api_?key|apikey|private_?key|card_?number|cardnumber|^pan$|^cvc$|^cvv2?$|^cv2$|security_?code|^pin$|^otp$|^ssn$/i;

/**
 * Path parameters listed apart from body fields; secrets marked so that they are never hashed
 * plainly; route written the way the design shows it. A body field named like a path parameter
 * stays a body field (`req.body.id`, a PayPal capture id, on `PUT /orders/:id/pay`): both are
 * hashed, the path as part of the route.
 */
function finishEndpoint(endpoint: EndpointFinding): EndpointFinding {
  const route = normaliseRoute(endpoint.route);
  const pathParams = [...route.matchAll(/(?::(\w+)|\{(\w+)(?::[^}]*)?\}|\[(?:\.\.\.)?(\w+)\]|<(?:\w+:)?(\w+)>)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? m[4] ?? '').filter(Boolean);
  const { bodyFields } = endpoint;
  const secretFields = bodyFields.filter((f) => SECRET_FIELD.test(f.slice(f.lastIndexOf('.') + 1)));
  return { ...endpoint, route, bodyFields, ...(pathParams.length > 0 ? { pathParams } : {}), ...(secretFields.length > 0 ? { secretFields } : {}) };
}

function dedupeEndpoints(endpoints: readonly EndpointFinding[]): EndpointFinding[] {
  const seen = new Set<string>();
  return endpoints.filter((e) => {
    const key = `${e.method} ${e.route} ${e.operation ?? e.serverAction?.name ?? ''} ${e.location}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export interface InspectOptions {
  /**
   * The pattern scanners' pre-filter (python-prefilter.ts), on by default. Off only to show that it
   * changes nothing: the TS/JS triage (prefilter.ts) decides what is browser code and stays on.
   */
  readonly prefilter?: boolean;
}

/**
 * Inspects `dir` and reports the stack and every critical action found, each with `path:line`.
 * @example
 * const inspection = await inspectCodebase('./services/payments-api');
 * inspection.framework?.value;          // 'express'
 * inspection.endpoints.map((e) => `${e.method} ${e.route} (${e.location})`);
 */
export async function inspectCodebase(dir: string, limits: WalkLimits = {}, { prefilter = true }: InspectOptions = {}): Promise<Inspection> {
  const root = resolve(dir);
  const notes: string[] = [];
  const walked = walkSourceFiles(root, limits);
  if (walked.skippedLarge > 0) notes.push(`${walked.skippedLarge} file(s) over the size limit were not read.`);
  if (walked.truncated && walked.skippedLarge === 0) notes.push(`Stopped after ${walked.files.length} files; findings may be incomplete.`);

  const manifests = emptyManifestFindings();
  const read = (absPath: string): string => readFileSync(absPath, 'utf8');
  // Schedules declared in YAML (Kubernetes CronJobs, sidekiq-cron) and dedup in SQL/Prisma schemas.
  const yamlSchedules: SchedulerFinding[] = [];
  const protectionScans: ProtectionScan[] = [];
  // Spring Boot `server.servlet.context-path` and kin: a base path for every route of a module.
  const springConfigs: SpringConfigFile[] = [];
  // tsconfig/jsconfig `paths` and package.json subpath imports: where `@/controllers/x` points.
  const moduleConfigs: ConfigFile[] = [];
  for (const file of walked.files) {
    if (/\.(json|toml|txt|xml|gradle|kts|csproj|mod|ya?ml|properties|prisma|sql)$|(^|\/)Gemfile$/.test(file.relPath)) {
      const text = read(file.absPath);
      if (MODULE_CONFIG.test(file.relPath)) moduleConfigs.push({ relPath: file.relPath, text });
      if (mayDeclareSpringBasePath(file.relPath, text)) springConfigs.push({ relPath: file.relPath, text });
      if (!file.relPath.endsWith('.sql')) readManifest(manifests, file, text);
      if (/\.ya?ml$/.test(file.relPath)) yamlSchedules.push(...scanScheduleManifest(file.relPath, text));
      if (/\.(sql|prisma)$/.test(file.relPath)) protectionScans.push(scanExistingProtection(file.relPath, text));
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

  // A file named by another (a route file's controller, a tsconfig's `extends`) may be missing or unreadable.
  const readIfPresent = (relPath: string): string | undefined => {
    try {
      return read(resolve(root, relPath));
    } catch {
      return undefined;
    }
  };
  const modulePaths = modulePathsOf(moduleConfigs, new Set(sourceFiles.map((s) => s.file.relPath)), readIfPresent);
  const hints = { framework: chooseFramework([], manifests.frameworks)?.value, broker: chooseBroker(manifests.brokers, [])?.value, modulePaths };
  const needsTs = sourceFiles.some((s) => s.language === 'typescript' || s.language === 'javascript');
  const tsScanner = needsTs ? await loadTypeScriptScanner(notes) : undefined;
  const code = emptyFindings();
  const shapeIndex = createShapeIndex();
  const handlerTypes = new Map<string, Array<{ dir: string; type: string }>>();
  const routeFacts: RouteFacts[] = [];
  const settings: Array<{ name: string; value: string; location: string }> = [];
  // Files that may call the app's own API: read again only if a handler answers every method.
  const callerFiles: Array<{ relPath: string; absPath: string }> = [];
  let parsed = 0;
  const started = Date.now();
  for (const [order, { file, language }] of sourceFiles.entries()) {
    const scan: Scanner | undefined = language === 'typescript' || language === 'javascript'
      ? tsScanner && ((relPath, text) => tsScanner.scanTypeScript(relPath, text, hints))
      : PATTERN_SCANNERS[language];
    if (!scan) continue;
    try {
      const text = read(file.absPath);
      protectionScans.push(scanExistingProtection(file.relPath, text));
      if ((language === 'typescript' || language === 'javascript') && CALLER_HINT.test(text)) callerFiles.push(file);
      // A cheap textual pre-filter: most files of a large repository declare nothing the scanners
      // look for, and a full parse (TypeScript above all) is the expensive part (prefilter.ts).
      const verdict = triage(language, file.relPath, text, hints);
      if (verdict === 'defer') shapeIndex.defer(order, file.relPath, text);
      if (verdict !== 'scan') continue;
      parsed += 1;
      // A Python file with no literal any finding pattern needs: its facts only (python-prefilter.ts).
      const scanned = language === 'python' && prefilter && !pythonMayHoldFindings(text) ? scanPythonFacts(file.relPath, text) : scan(file.relPath, text);
      // A Python body model is the one its file imports, where two modules declare one name.
      const result = language === 'python' ? qualifyPythonShapes(file.relPath, text, scanned) : scanned;
      if (result.routeFacts) routeFacts.push(result.routeFacts);
      settings.push(...(result.settings ?? []));
      for (const note of result.notes ?? []) if (!notes.includes(note)) notes.push(note);
      merge(code, result.findings);
      shapeIndex.add(order, result.shapes);
      for (const [name, type] of result.handlerBodyTypes ?? []) handlerTypes.set(name, [...(handlerTypes.get(name) ?? []), { dir: dirOf(file.relPath), type }]);
    } catch (error) {
      notes.push(`${file.relPath} could not be analysed: ${(error as Error).message}`);
    }
  }

  const sourcePaths = new Set(sourceFiles.map((s) => s.file.relPath));
  // Laravel: each route file's prefix as the app loads it, and each action linked to its controller method
  // (first: the scanner's findings are matched by identity).
  code.endpoints = linkLaravelRoutes(code.endpoints, sourcePaths, readIfPresent);
  // Routes whose handlers live in controller modules: read those modules now that every file is known.
  if (tsScanner) code.endpoints = tsScanner.resolveImportedHandlers(code.endpoints, sourcePaths, (relPath) => read(resolve(root, relPath)), modulePaths);
  // Rails: each route linked to its controller action (app/controllers/<name>_controller.rb), read now that every file is known.
  code.endpoints = linkRailsControllers(code.endpoints, sourcePaths, readIfPresent);
  // Spring mappings on an interface belong to the controller implementing it, if any; module base paths are mounts.
  const spring = finishSpringRoutes(code.endpoints, settings, springConfigs, readIfPresent);
  const routed = resolveRoutes(spring.endpoints, [...routeFacts, spring.routeFacts], sourcePaths);
  notes.push(...spring.notes, ...routed.notes);
  // Body types named by endpoints: only now are the deferred files that may declare them parsed.
  const bodyTypeNames = [...routed.endpoints.map((e) => e.bodyType), ...[...handlerTypes.values()].flat().map((h) => h.type)]
    .flatMap((type) => (type ?? '').split('|')).filter(Boolean);
  const { shapes, loaded } = shapeIndex.resolve(bodyTypeNames, (relPath) => {
    try {
      return tsScanner?.scanTypeScript(relPath, read(resolve(root, relPath)), hints).shapes;
    } catch (error) {
      notes.push(`${relPath} could not be analysed: ${(error as Error).message}`);
      return undefined;
    }
  });
  parsed += loaded;
  const finished = dedupeEndpoints(resolveBodyTypes(routed.endpoints, shapes, handlerTypes))
    .map(finishEndpoint)
    .filter((e) => {
      // A path the design cannot print safely (a template the scanner did not resolve) is a
      // finding, never a reason to abort the whole run.
      if (PRINTABLE_ROUTE.test(e.route)) return true;
      notes.push(`${e.location}: route ${JSON.stringify(e.route)} was not understood and is left out of the design; protect it by hand.`);
      return false;
    });
  // Two rules can see one call (a provider pattern and a generic one): one finding per location.
  const paymentCalls = code.paymentCalls.filter((c, i, all) => all.findIndex((o) => o.location === c.location) === i);
  // Handlers every method runs: the method their callers send; kept only when they mutate.
  const settled = settleMethods(finished, await readClientFacts(finished, callerFiles, read, notes));
  const costs = assessCosts(settled, { root, paymentCalls, modulePaths });
  const mutating = keepMutating(settled.map((e) => {
    const cost = costs.get(e);
    return cost ? { ...e, cost: { level: cost.level, evidence: cost.evidence }, ...(cost.protection ? { protection: cost.protection } : {}) } : e;
  }));
  notes.push(...mutating.notes);
  const endpoints = mutating.endpoints;
  // Settings and constants declared in one file decide what another file's consumers mean.
  const consumers = resolveJvmChannels(finishCeleryTasks(code.consumers, settings), settings);
  const schedulers = finishPythonSchedules([...code.schedulers, ...yamlSchedules]);
  const existingProtection = assessExistingProtection(protectionScans, paymentCalls, endpoints);
  const elapsedMs = Date.now() - started;
  const frameworks = [...manifests.frameworks, ...code.frameworks];
  const databases = [...code.databases, ...manifests.databases];
  const brokers = [...code.brokers, ...manifests.brokers];
  const languages = manifests.languages;
  const framework = chooseFramework(endpoints, frameworks);
  const language = languageOfBackend(framework, fileCounts, chooseLanguage(fileCounts, languages));
  // The service's own build files: nearest to where its framework is declared (a monorepo's backend package).
  const serviceFile = (framework ?? language)?.location.replace(/:\d+$/, '');
  const languageLevel = language ? readLanguageLevel(root, resolve(root, serviceFile ? dirOf(serviceFile) : '.'), language.value) : undefined;
  const database = chooseDatabase(databases);
  const broker = chooseBroker(brokers, consumers);
  const providers = [...manifests.providers];
  for (const call of paymentCalls) {
    if (isPlanProvider(call.provider) && !providers.some((p) => p.value === call.provider)) providers.push({ value: call.provider, location: call.location, evidence: call.call });
  }
  // The top-most manifest names the project; nested ones are packages inside it.
  const projectName = [...manifests.projectNames].sort((a, b) => a.location.split('/').length - b.location.split('/').length)[0];
  const goTests = walked.files.find((f) => f.relPath.endsWith('_test.go'));
  const testFramework = manifests.testFrameworks[0] ?? (goTests ? { value: 'go-test', location: `${goTests.relPath}:1`, evidence: 'Go test file' } : undefined);
  // Koa: the principal the handlers read on ctx.state, which the generated middleware scopes keys by.
  const principal = framework?.value === 'koa' ? koaPrincipal(endpoints, readIfPresent) : undefined;
  return {
    dir: root,
    filesScanned: walked.files.length,
    filesParsed: parsed,
    scanMs: elapsedMs,
    truncated: walked.truncated,
    ...(language ? { language } : {}),
    ...(framework ? { framework } : {}),
    ...(database ? { database } : {}),
    ...(broker ? { broker } : {}),
    ...(testFramework ? { testFramework } : {}),
    ...(languageLevel ? { languageLevel } : {}),
    ...(projectName ? { projectName } : {}),
    ...(principal ? { principal } : {}),
    ...(manifests.packageManagers[0] ? { packageManager: manifests.packageManagers[0] } : {}),
    ...(manifests.instances[0] ? { instances: manifests.instances[0] } : {}),
    paymentProviders: providers,
    endpoints,
    paymentCalls,
    consumers,
    webhooks: endpoints.filter((e) => e.webhook),
    schedulers,
    existingProtection,
    evidence: { languages, frameworks, databases, brokers },
    notes,
  };
}
