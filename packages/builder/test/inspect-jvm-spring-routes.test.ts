// Spring routes as a real deployment serves them: statically imported request methods, class
// mappings behind Javadoc, API interfaces versus HTTP clients, and each module's context path.
import { describe, expect, it } from 'vitest';
import { tempProjects } from './support/temp-project.js';
import { inspectCodebase } from '../src/inspect/inspect-codebase.js';
import { scanJvm } from '../src/inspect/patterns/jvm.js';
import { springBasePaths } from '../src/inspect/patterns/jvm-spring-config.js';

const project = tempProjects('jvm-spring');

const routesOf = (relPath: string, text: string): string[] => scanJvm(relPath, text).findings.endpoints.map((e) => `${e.method} ${e.route}`);

const POM = '<project><artifactId>svc</artifactId><dependencies><dependency><artifactId>spring-boot-starter-web</artifactId></dependency></dependencies></project>';

describe('Spring request methods', () => {
  it('reads a statically imported RequestMethod: method = POST, method = {POST, PUT}, and the qualified and Kotlin forms', () => {
    const java = [
      'import static org.springframework.web.bind.annotation.RequestMethod.POST;',
      'import static org.springframework.web.bind.annotation.RequestMethod.PUT;',
      '@RestController',
      'public class UsersApi {',
      '  @RequestMapping(path = "/users", method = POST)',
      '  public ResponseEntity createUser(@Valid @RequestBody RegisterParam p) { return null; }',
      '  @RequestMapping(path = "/users/{id}", method = {POST, PUT})',
      '  public void upsert(@PathVariable String id) {}',
      '  @RequestMapping(value = "/users/{id}", method = RequestMethod.DELETE)',
      '  public void remove(@PathVariable String id) {}',
      '  @RequestMapping(path = "/users/{id}", method = GET)',
      '  public User read(@PathVariable String id) { return null; }',
      '}',
    ].join('\n');
    expect(routesOf('src/main/java/UsersApi.java', java)).toEqual(['POST /users', 'POST /users/{id}', 'PUT /users/{id}', 'DELETE /users/{id}']);
    const kotlin = '@RestController\nclass Orders {\n  @RequestMapping(value = ["/orders"], method = [RequestMethod.POST])\n  fun create(@RequestBody o: Order) {}\n}\n';
    expect(routesOf('src/main/kotlin/Orders.kt', kotlin)).toEqual(['POST /orders']);
  });
});

describe('Spring class-level mappings', () => {
  it('keeps the class prefix when a Javadoc or a comment before the annotations says "class"', () => {
    const text = [
      '/**',
      ' * Places holds. This class is the only writer of holds.',
      ' */',
      '// the class mapping below is the API prefix',
      '@RestController',
      '@RequestMapping("/accounts")',
      'public class AccountsController {',
      '  @PostMapping("/{id}/holds")',
      '  public void hold(@PathVariable String id) {}',
      '}',
    ].join('\n');
    expect(routesOf('src/main/java/AccountsController.java', text)).toEqual(['POST /accounts/{id}/holds']);
  });

  it('does not report a commented-out mapping', () => {
    const text = '@RestController\n@RequestMapping("/a")\npublic class A {\n  // @PostMapping("/old")\n  /* @DeleteMapping("/older") */\n  @PostMapping("/new")\n  public void create() {}\n}\n';
    expect(routesOf('src/main/java/A.java', text)).toEqual(['POST /a/new']);
  });
});

describe('Spring interfaces: HTTP clients versus API contracts', () => {
  const feign = [
    'package com.acme.account.client;',
    '@FeignClient(name = "auth-service")',
    'public interface AuthServiceClient {',
    '  @RequestMapping(method = RequestMethod.POST, value = "/uaa/users", consumes = MediaType.APPLICATION_JSON_VALUE)',
    '  void createUser(User user);',
    '}',
  ].join('\n');

  it('a @FeignClient interface is not an entry point, and its path is never doubled', async () => {
    const scanned = scanJvm('account/src/main/java/AuthServiceClient.java', feign).findings.endpoints;
    expect(scanned.map((e) => e.route)).toEqual(['/uaa/users']);
    const root = project({ 'account/pom.xml': POM, 'account/src/main/java/com/acme/account/client/AuthServiceClient.java': feign });
    const inspection = await inspectCodebase(root);
    expect(inspection.endpoints).toEqual([]);
    expect(inspection.notes.join('\n')).toMatch(/HTTP clients.*AuthServiceClient \(account\/src\/main\/java\/com\/acme\/account\/client\/AuthServiceClient\.java:4\)/);
  });

  it('an @HttpExchange interface is a client too', async () => {
    const client = '@HttpExchange("/payments")\npublic interface PaymentsClient {\n  @PostExchange("/{id}/capture")\n  Payment capture(@PathVariable String id);\n}\n';
    const root = project({ 'pom.xml': POM, 'src/main/java/com/acme/PaymentsClient.java': client });
    expect((await inspectCodebase(root)).endpoints).toEqual([]);
  });

  it('an API interface implemented by a @RestController counts once, at the controller, with the interface paths and body', async () => {
    const api = [
      '@RequestMapping("/users")',
      'public interface UsersApi {',
      '  @PostMapping',
      '  default ResponseEntity<Void> createUser(@Valid @RequestBody NewUser newUser) {',
      '    return new ResponseEntity<>(HttpStatus.NOT_IMPLEMENTED);',
      '  }',
      '}',
    ].join('\n');
    const controller = [
      '@RestController',
      'public class UsersController implements UsersApi {',
      '  @Override',
      '  public ResponseEntity<Void> createUser(NewUser newUser) {',
      '    users.save(newUser.toUser());',
      '    return ResponseEntity.ok().build();',
      '  }',
      '}',
    ].join('\n');
    const root = project({
      'pom.xml': POM,
      'src/main/java/com/acme/api/UsersApi.java': api,
      'src/main/java/com/acme/web/UsersController.java': controller,
      'src/main/java/com/acme/api/NewUser.java': 'public record NewUser(String email, String name) {}\n',
    });
    const inspection = await inspectCodebase(root);
    expect(inspection.endpoints.map((e) => `${e.method} ${e.route} @ ${e.location}`)).toEqual(['POST /users @ src/main/java/com/acme/web/UsersController.java:4']);
    expect(inspection.endpoints[0]).toMatchObject({ handler: 'createUser', bodyFields: ['email', 'name'], cost: { level: 'write' } });
  });

  it('a Kotlin controller implementing the interface answers it as well', async () => {
    const api = 'interface OrdersApi {\n  @PostMapping("/orders")\n  fun createOrder(@RequestBody order: NewOrder): Order\n}\n';
    const controller = '@RestController\nclass OrdersController(private val orders: OrderRepository) : OrdersApi {\n  override fun createOrder(order: NewOrder): Order {\n    return orders.save(order.toOrder())\n  }\n}\n';
    const root = project({ 'pom.xml': POM, 'src/main/kotlin/OrdersApi.kt': api, 'src/main/kotlin/OrdersController.kt': controller });
    expect((await inspectCodebase(root)).endpoints.map((e) => `${e.method} ${e.route} @ ${e.location}`)).toEqual(['POST /orders @ src/main/kotlin/OrdersController.kt:3']);
  });
});

describe('Spring Boot base paths per module', () => {
  const controller = (pkg: string, path: string): string => `package ${pkg};\n@RestController\npublic class C {\n  @PostMapping("${path}")\n  public void create() { repository.save(x); }\n}\n`;

  it('prefixes each module with its own context path and servlet path, and leaves profiles and config-server files out', async () => {
    const root = project({
      'pom.xml': POM,
      'accounts/src/main/resources/application.yml': 'server:\n  servlet:\n    context-path: /accounts\n---\nspring:\n  config:\n    activate:\n      on-profile: local\nserver:\n  servlet:\n    context-path: /local\n',
      'accounts/src/main/java/a/C.java': controller('a', '/current'),
      'stats/src/main/resources/application.properties': 'server.servlet.context-path=/statistics\nspring.mvc.servlet.path=/api\n',
      'stats/src/main/java/s/C.java': controller('s', '/{name}'),
      'auth/src/main/java/u/C.java': controller('u', '/users'),
      'config/src/main/resources/shared/auth.yml': 'server:\n  servlet:\n    context-path: /uaa\n',
    });
    const inspection = await inspectCodebase(root);
    expect(inspection.endpoints.map((e) => `${e.method} ${e.route}`).sort()).toEqual(['POST /accounts/current', 'POST /statistics/api/{name}', 'POST /users']);
    expect(inspection.notes.join('\n')).toMatch(/config\/src\/main\/resources\/shared\/auth\.yml:3: a base path `\/uaa` is set outside a module's own/);
  });

  it('reads WebFlux base-path, config/ over the classpath root, .properties over YAML, and a placeholder default', () => {
    const mounts = (files: Record<string, string>): string[] => springBasePaths(Object.entries(files).map(([relPath, text]) => ({ relPath, text }))).facts.mounts.map((m) => `${m.child} ${String(m.prefix)}`);
    expect(mounts({ 'src/main/resources/application.yaml': 'spring:\n  webflux:\n    base-path: /reactive\n' })).toEqual(['spring:module:. /reactive']);
    expect(mounts({
      'svc/src/main/resources/application.yml': 'server.servlet.context-path: /yaml\n',
      'svc/src/main/resources/application.properties': 'server.servlet.contextPath=/props\n',
    })).toEqual(['spring:module:svc /props']);
    expect(mounts({
      'svc/src/main/resources/config/application.yml': 'server:\n  servlet:\n    context-path: /outer\n',
      'svc/src/main/resources/application.properties': 'server.servlet.context-path=/inner\n',
    })).toEqual(['spring:module:svc /outer']);
    expect(mounts({ 'src/main/resources/application.properties': 'server.servlet.context-path=${APP_PATH:/api}\n' })).toEqual(['spring:module:. /api']);
    const unknown = springBasePaths([{ relPath: 'src/main/resources/application.properties', text: 'server.servlet.context-path=${APP_PATH}\n' }]);
    expect(unknown.facts.mounts).toEqual([]);
    expect(unknown.notes.join('\n')).toMatch(/application\.properties:1: the base path `\$\{APP_PATH\}` comes from the environment/);
  });
});

describe('Spring files with several top-level types', () => {
  it('reads the class mapping of the controller, not of a DTO declared before it in the same Kotlin file', () => {
    const text = 'package a\n\ndata class NewOrder(val sku: String)\n\n@RestController\n@RequestMapping("/orders")\nclass OrdersController(private val orders: OrderRepository) {\n  @PostMapping("/{id}/lines")\n  fun addLine(@RequestBody order: NewOrder) = orders.save(order)\n}\n';
    expect(routesOf('src/main/kotlin/a/Orders.kt', text)).toEqual(['POST /orders/{id}/lines']);
  });
});

describe('Spring API interfaces whose controller repeats the mapping', () => {
  it('counts the route once', async () => {
    const api = 'public interface PaymentsApi {\n  @PostMapping("/payments")\n  Payment pay(@RequestBody PayRequest request);\n}\n';
    const controller = '@RestController\npublic class PaymentsController implements PaymentsApi {\n  @PostMapping("/payments")\n  public Payment pay(@RequestBody PayRequest request) {\n    return payments.save(request.toPayment());\n  }\n}\n';
    const root = project({ 'pom.xml': POM, 'src/main/java/p/PaymentsApi.java': api, 'src/main/java/p/PaymentsController.java': controller });
    expect((await inspectCodebase(root)).endpoints.map((e) => `${e.method} ${e.route} @ ${e.location}`)).toEqual(['POST /payments @ src/main/java/p/PaymentsController.java:3']);
  });
});
