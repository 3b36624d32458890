/**
 * Spring routes once every file is read. Mappings declared on an interface are entry points only
 * where a `@RestController`/`@Controller` implements it (an OpenAPI-generated `UsersApi` and the
 * controller implementing it): they are reported once, at the controller's method, whose body is
 * what a duplicate runs, in the controller's module. An interface no controller implements is an
 * HTTP client (`@FeignClient`, an `@HttpExchange` interface) and is left out. The base paths the
 * modules' configuration sets become route-graph mounts (jvm-spring-config.ts).
 */
import { lineAtOffset } from '../location.js';
import type { RouteFacts } from '../route-graph.js';
import type { EndpointFinding } from '../types.js';
import { maskCode } from './code-mask.js';
import { springEndpoint } from './jvm.js';
import { springBasePaths, type SpringConfigFile } from './jvm-spring-config.js';
import { SPRING_IMPLEMENTS, SPRING_INTERFACE_NODE, springModuleNode } from './jvm-source.js';

export interface FinishedSpringRoutes {
  readonly endpoints: EndpointFinding[];
  readonly routeFacts: RouteFacts;
  readonly notes: string[];
}

/** The interface's endpoint moved to the controller's method of the same name (kept at the interface when the controller inherits a default method). */
function atController(endpoint: EndpointFinding, relPath: string, text: string | undefined): EndpointFinding {
  const moduleNode = springModuleNode(relPath);
  const { scope: _interfaceNode, ...rest } = endpoint;
  const inModule = { ...rest, ...(moduleNode ? { scope: moduleNode } : {}) };
  if (!text || !endpoint.handler) return inModule;
  const code = maskCode(text, 'jvm');
  // A declaration has a return type or `fun` before its name; a call statement (`createUser(x);`) has not.
  const declared = new RegExp(`^[ \\t]*[\\w<>,?[\\]\\s]*\\s${endpoint.handler}\\s*\\(`, 'm').exec(code);
  if (!declared) return inModule;
  const line = lineAtOffset(code, declared.index);
  const found = springEndpoint(code, relPath, endpoint.method, endpoint.route, line, line);
  // Parameter annotations are inherited from the interface: its `@RequestBody` type stands when the override repeats none.
  return { ...found, ...(found.bodyType ? {} : endpoint.bodyType ? { bodyType: endpoint.bodyType } : {}), ...(moduleNode ? { scope: moduleNode } : {}) };
}

/**
 * Resolves interface-declared mappings against the controllers implementing them and reads the
 * modules' base paths.
 * @example finishSpringRoutes(endpoints, settings, configs, (relPath) => readFileSync(relPath, 'utf8')).endpoints
 */
export function finishSpringRoutes(
  endpoints: readonly EndpointFinding[],
  settings: ReadonlyArray<{ readonly name: string; readonly value: string }>,
  configs: readonly SpringConfigFile[],
  read: (relPath: string) => string | undefined,
): FinishedSpringRoutes {
  const implementors = new Map<string, string[]>();
  for (const setting of settings) {
    if (!setting.name.startsWith(SPRING_IMPLEMENTS)) continue;
    const name = setting.name.slice(SPRING_IMPLEMENTS.length);
    implementors.set(name, [...new Set([...(implementors.get(name) ?? []), setting.value])]);
  }
  const texts = new Map<string, string | undefined>();
  const textOf = (relPath: string): string | undefined => {
    if (!texts.has(relPath)) texts.set(relPath, read(relPath));
    return texts.get(relPath);
  };
  const clients = new Map<string, string>();
  const out: EndpointFinding[] = [];
  for (const endpoint of endpoints) {
    if (!endpoint.scope?.startsWith(SPRING_INTERFACE_NODE)) {
      out.push(endpoint);
      continue;
    }
    const name = endpoint.scope.slice(SPRING_INTERFACE_NODE.length);
    const controllers = implementors.get(name) ?? [];
    if (controllers.length === 0 && !clients.has(name)) clients.set(name, endpoint.location);
    for (const relPath of controllers) {
      // A controller that repeats the interface's mapping already declared this route itself.
      const repeated = endpoints.some((e) => e.method === endpoint.method && e.route === endpoint.route && e.location.replace(/:\d+$/, '') === relPath);
      if (!repeated) out.push(atController(endpoint, relPath, textOf(relPath)));
    }
  }
  const notes: string[] = [];
  if (clients.size > 0) {
    notes.push(`Left out as HTTP clients, not entry points: interface(s) with Spring mappings that no @RestController implements (@FeignClient, HTTP interfaces): ${[...clients].map(([name, at]) => `${name} (${at})`).join(', ')}.`);
  }
  const spring = out.some((e) => e.framework === 'spring');
  const basePaths = springBasePaths(spring ? configs : []);
  return { endpoints: out, routeFacts: basePaths.facts, notes: [...notes, ...basePaths.notes] };
}
