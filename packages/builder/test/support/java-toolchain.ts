/**
 * Compiles generated Java with the real javac (JDK 17) and runs its JUnit 5 tests. Spring,
 * Jackson and JUnit are not installable here, so the few types the generated code uses are
 * declared as stub sources below (a stub ResponseEntity, ObjectMapper, @Component, @Scheduled,
 * @Test and Assertions); everything else is the JDK. A tiny runner calls each @Test method.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

const STUBS: Record<string, string> = {
  'org/springframework/stereotype/Component.java': `package org.springframework.stereotype;
import java.lang.annotation.*;
@Retention(RetentionPolicy.RUNTIME) @Target(ElementType.TYPE) public @interface Component {}`,
  'org/springframework/scheduling/annotation/Scheduled.java': `package org.springframework.scheduling.annotation;
import java.lang.annotation.*;
@Retention(RetentionPolicy.RUNTIME) @Target(ElementType.METHOD) public @interface Scheduled { long fixedDelay() default -1; }`,
  'org/springframework/http/HttpStatusCode.java': `package org.springframework.http;
public interface HttpStatusCode { int value(); }`,
  'org/springframework/http/ResponseEntity.java': `package org.springframework.http;
public class ResponseEntity<T> {
  private final int status; private final T body;
  private ResponseEntity(int status, T body) { this.status = status; this.body = body; }
  public interface BodyBuilder { BodyBuilder header(String name, String... values); <T> ResponseEntity<T> body(T body); }
  public static BodyBuilder status(int status) {
    return new BodyBuilder() {
      public BodyBuilder header(String name, String... values) { return this; }
      public <B> ResponseEntity<B> body(B body) { return new ResponseEntity<>(status, body); }
    };
  }
  public HttpStatusCode getStatusCode() { return () -> status; }
  public T getBody() { return body; }
}`,
  'com/fasterxml/jackson/core/JsonProcessingException.java': `package com.fasterxml.jackson.core;
public class JsonProcessingException extends java.io.IOException { public JsonProcessingException(String m) { super(m); } }`,
  'com/fasterxml/jackson/databind/ObjectMapper.java': `package com.fasterxml.jackson.databind;
import com.fasterxml.jackson.core.JsonProcessingException;
public class ObjectMapper {
  public String writeValueAsString(Object value) throws JsonProcessingException { return String.valueOf(value); }
  public <T> T readValue(String content, Class<T> type) throws JsonProcessingException { return type.cast(content); }
}`,
  'org/junit/jupiter/api/Test.java': `package org.junit.jupiter.api;
import java.lang.annotation.*;
@Retention(RetentionPolicy.RUNTIME) @Target(ElementType.METHOD) public @interface Test {}`,
  'org/junit/jupiter/api/Assertions.java': `package org.junit.jupiter.api;
public final class Assertions {
  public static void assertEquals(long expected, long actual) { if (expected != actual) throw new AssertionError("expected " + expected + " but was " + actual); }
  public static void assertEquals(Object expected, Object actual) { if (!java.util.Objects.equals(expected, actual)) throw new AssertionError("expected " + expected + " but was " + actual); }
  public static void assertNotEquals(Object unexpected, Object actual) { if (java.util.Objects.equals(unexpected, actual)) throw new AssertionError("both were " + actual); }
  public static void assertTrue(boolean condition) { if (!condition) throw new AssertionError("expected true"); }
  public static void assertFalse(boolean condition) { if (condition) throw new AssertionError("expected false"); }
}`,
  'RunTests.java': `import java.lang.reflect.*;
public class RunTests {
  public static void main(String[] args) throws Exception {
    Class<?> type = Class.forName(args[0]);
    int passed = 0, failed = 0;
    for (Method method : type.getDeclaredMethods()) {
      if (!method.isAnnotationPresent(org.junit.jupiter.api.Test.class)) continue;
      Constructor<?> constructor = type.getDeclaredConstructor();
      constructor.setAccessible(true);
      method.setAccessible(true);
      try { method.invoke(constructor.newInstance()); passed++; System.out.println("PASS " + method.getName()); }
      catch (InvocationTargetException e) { failed++; System.out.println("FAIL " + method.getName() + ": " + e.getCause()); }
    }
    System.out.println(passed + " passed, " + failed + " failed");
    System.exit(failed == 0 && passed > 0 ? 0 : 1);
  }
}`,
};

/** Short-lived JVMs: C1 only and the serial collector start faster and use less of the 2 cores. */
const FAST_START = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];

export interface JavaResult {
  readonly compiled: boolean;
  readonly output: string;
  readonly testOutput?: string;
  readonly testsPassed?: boolean;
}

/**
 * Compiles every .java file under `dir` against the stubs (at `release` when given) and runs `testClass`.
 * @example const result = await compileAndTestJava(dir, 'com.example.idempotency.IdempotencyEngineTest');
 */
export async function compileAndTestJava(dir: string, testClass: string, { release }: { release?: number } = {}): Promise<JavaResult> {
  const stubDir = join(dir, '__stubs__');
  for (const [path, source] of Object.entries(STUBS)) {
    const file = join(stubDir, path);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, source);
  }
  const sources = listJava(dir);
  const classes = join(dir, '__classes__');
  mkdirSync(classes, { recursive: true });
  try {
    // `--release N`: the project's Java release — language features and JDK API both checked at N.
    await run('javac', [...FAST_START.map((flag) => `-J${flag}`), ...(release ? ['--release', String(release)] : []), '-proc:none', '-d', classes, ...sources], { cwd: dir });
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string };
    return { compiled: false, output: `${failure.stdout ?? ''}${failure.stderr ?? ''}` };
  }
  try {
    const { stdout } = await run('java', [...FAST_START, '-cp', classes, 'RunTests', testClass], { cwd: dir, timeout: 60_000 });
    return { compiled: true, output: '', testOutput: stdout, testsPassed: true };
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string };
    return { compiled: true, output: '', testOutput: `${failure.stdout ?? ''}${failure.stderr ?? ''}`, testsPassed: false };
  }
}

function listJava(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.java') && !join(entry.parentPath, entry.name).includes('__classes__'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Debian's JDBC drivers, one per SQL store. */
export const JDBC_DRIVERS: Readonly<Record<string, string>> = {
  postgresql: '/usr/share/java/postgresql.jar',
  mysql: '/usr/share/java/mariadb-java-client.jar',
  sqlite: '/usr/share/java/sqlite-jdbc.jar',
};

/**
 * Runs the compiled ConformanceRunner (after compileAndTestJava) with the store's JDBC driver on
 * the class path; returns what it printed, whether it passed or not.
 * @example const output = await runJavaConformance(dir, scenarios, 'postgresql', 'jdbc:postgresql://…');
 */
export async function runJavaConformance(dir: string, scenarios: string, store: string, target: string): Promise<string> {
  const classPath = [join(dir, '__classes__'), ...(JDBC_DRIVERS[store] ? [JDBC_DRIVERS[store]] : [])].join(':');
  try {
    const { stdout } = await run('java', [...FAST_START, '-cp', classPath, 'com.example.idempotency.ConformanceRunner', scenarios, store, target], { cwd: dir, timeout: 120_000 });
    return stdout;
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string };
    return `${failure.stdout ?? ''}${failure.stderr ?? ''}`;
  }
}
