/**
 * Generated code compiles in the target project's own settings: the builder reads the language
 * level from the project's build files (tsconfig + package.json, pom.xml, go.mod, pyproject), and
 * the code it writes for that project compiles there — TypeScript under commonjs/node10, node16,
 * nodenext and bundler in a project outside this repository; Java with `javac --release 11` and
 * 17; Go inside a module with the project's module path and go version, and the Gin glue against
 * Debian's gin; Python at the project's oldest version. Toolchains that are absent skip with a
 * printed reason, and fail under CI=true.
 */
import { execFile } from 'node:child_process';
import { access, readFile } from 'node:fs/promises';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { Answers } from '../src/answers.js';
import { buildDesign } from '../src/design/build-design.js';
import type { Artifact } from '../src/design/model.js';
import { inspectCodebase } from '../src/inspect/inspect-codebase.js';
import { readLanguageLevel } from '../src/inspect/language-level.js';
import { collectAnswers } from '../src/questions/collect-answers.js';
import { projectDataJava } from '../src/emit/java/index.js';
import { renderMarkdown } from '../src/render/markdown.js';
import { serviceAvailable } from '../../runtime/test/support/services.js';
import { GENERATED_AT } from './fixtures.js';
import { DEBIAN_GOPATH, goEnv } from './support/go-toolchain.js';
import { compileAndTestJava } from './support/java-toolchain.js';
import { PYTHON } from './support/python-toolchain.js';
import { bareImports, linkNodeModules, tempProject, TS_MODES, typeCheck, writeProjectFiles, type TsMode } from './support/typescript-project.js';
import { REPO, writeArtifacts } from './support/workspace.js';
import { ginUsageTest, usageFile } from './support/usage-files.js';

const run = promisify(execFile);
const HERE = import.meta.dirname;
const LEVEL_CHECK = join(HERE, 'support/python_level_check.py');

const temps: Array<() => void> = [];
afterAll(() => temps.forEach((remove) => remove()));
const temp = (label: string) => {
  const project = tempProject(label);
  temps.push(project.remove);
  return project.dir;
};

/** The builder on a directory, as `idempotency-builder design` runs it without a terminal. */
async function design(dir: string): Promise<{ answers: Answers; artifacts: readonly Artifact[]; markdown: string }> {
  const { answers } = await collectAnswers({ inspect: () => inspectCodebase(dir), prompts: undefined });
  const model = buildDesign(answers, { generatedAt: GENERATED_AT });
  return { answers, artifacts: model.artifacts, markdown: renderMarkdown(model) };
}

/** A copy of a fixture codebase with some of its files replaced. */
function copyFixture(from: string, label: string, replace: Record<string, string> = {}): string {
  const dir = join(temp(label), 'service');
  cpSync(resolve(HERE, from), dir, { recursive: true });
  for (const [path, text] of Object.entries(replace)) writeFileSync(join(dir, path), text);
  return dir;
}

describe('the language level is read from the build files, each setting with its file:line', () => {
  it('TypeScript: through a local extends; package.json type; unset moduleResolution is the default, stated', () => {
    const dir = temp('level-ts');
    writeFileSync(join(dir, 'tsconfig.base.json'), '{\n  // shared\n  "compilerOptions": {\n    "module": "NodeNext",\n    "target": "ES2022",\n  },\n}\n');
    writeFileSync(join(dir, 'tsconfig.json'), '{ "extends": "./tsconfig.base.json", "compilerOptions": { "strict": true } }\n');
    writeFileSync(join(dir, 'package.json'), '{\n  "name": "api",\n  "type": "module"\n}\n');
    const level = readLanguageLevel(dir, dir, 'typescript');
    expect(level?.typescript).toEqual({ module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', packageType: 'module' });
    expect(level?.locations).toMatchObject({ 'typescript.module': 'tsconfig.base.json:4', 'typescript.target': 'tsconfig.base.json:5', 'typescript.packageType': 'package.json:3' });
    expect(level?.assumptions.join(' ')).toMatch(/moduleResolution is not set: nodenext/);
  });

  it('TypeScript: a package extends that is not installed is an assumption, never a silent default', () => {
    const dir = temp('level-ts-package');
    writeFileSync(join(dir, 'tsconfig.json'), '{ "extends": "@tsconfig/node20/tsconfig.json" }\n');
    const level = readLanguageLevel(dir, dir, 'typescript');
    expect(level?.typescript?.module).toBe('nodenext');
    expect(level?.assumptions.join(' ')).toMatch(/extends "@tsconfig\/node20\/tsconfig.json", a package that is not installed here/);
  });

  it.each([
    ['pom.xml', '<project>\n  <properties>\n    <java.version>11</java.version>\n  </properties>\n</project>\n', 11, 'pom.xml:3'],
    ['pom.xml', '<project><properties><jdk>17</jdk></properties>\n<build><plugins><plugin><configuration>\n<release>${jdk}</release>\n</configuration></plugin></plugins></build></project>', 17, 'pom.xml:3'],
    ['pom.xml', '<project>\n<properties>\n<maven.compiler.source>1.8</maven.compiler.source>\n</properties></project>', 8, 'pom.xml:3'],
    ['build.gradle', "plugins { id 'java' }\njava {\n  toolchain {\n    languageVersion = JavaLanguageVersion.of(21)\n  }\n}\n", 21, 'build.gradle:4'],
    ['build.gradle.kts', 'java {\n    sourceCompatibility = JavaVersion.VERSION_11\n}\n', 11, 'build.gradle.kts:2'],
  ])('Java: %s → release %i', (name, text, release, location) => {
    const dir = temp('level-java');
    writeFileSync(join(dir, name), text);
    const level = readLanguageLevel(dir, dir, 'java');
    expect(level?.java?.release).toBe(release);
    expect(level?.locations['java.release']).toBe(location);
  });

  it('Go and Python: the go directive and module path; requires-python, Poetry and setup.cfg minimums', () => {
    const go = temp('level-go');
    writeFileSync(join(go, 'go.mod'), 'module github.com/acme/ledger\n\ngo 1.21\n\nrequire github.com/gin-gonic/gin v1.10.0\n');
    expect(readLanguageLevel(go, go, 'go')).toMatchObject({ go: { version: '1.21', module: 'github.com/acme/ledger' }, locations: { 'go.version': 'go.mod:3', 'go.module': 'go.mod:1' } });
    for (const [name, text, minimum] of [
      ['pyproject.toml', '[project]\nname = "x"\nrequires-python = ">=3.9,<4"\n', '3.9'],
      ['pyproject.toml', '[tool.poetry.dependencies]\npython = "^3.10"\n', '3.10'],
      ['setup.cfg', '[options]\npython_requires = >=3.8\n', '3.8'],
    ] as const) {
      const dir = temp('level-py');
      writeFileSync(join(dir, name), text);
      expect(readLanguageLevel(dir, dir, 'python')?.python?.minimum).toBe(minimum);
    }
  });
});

/** One compile per module setting, with the code the builder wrote for each framework's project. */
describe.each(TS_MODES.map((mode) => [mode.label, mode] as const))('TypeScript under %s', (_label, mode: TsMode) => {
  // koa-router-prefixes needs the runtime's built ./koa entry (npm run build).
  const CORPUS = ['express-mounted', 'nest-prefix', 'fastify-plugins', 'hono-routes', 'koa-router-prefixes'];

  it('reads the setting, writes imports for it, and tsc --noEmit accepts the generated code mounted in each framework', async () => {
    const root = temp(`ts-${mode.expect.module}`);
    const sources: string[] = [];
    for (const name of CORPUS) {
      // The corpus project with this mode's tsconfig and package "type"; its dependencies kept.
      const dir = join(root, 'inspect', name);
      cpSync(resolve(HERE, 'corpus', name), dir, { recursive: true });
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
      delete manifest.type;
      writeProjectFiles(dir, mode);
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...manifest, ...(mode.packageType ? { type: mode.packageType } : {}) }));
      const { answers, artifacts } = await design(dir);
      expect(answers.stack.level?.typescript, name).toMatchObject({ module: mode.expect.module, moduleResolution: mode.expect.moduleResolution });
      expect(answers.stack.level?.locations['typescript.module'], name).toMatch(/^tsconfig\.json:\d+$/);
      const code = artifacts.filter((a) => a.language === 'typescript');
      const relative = code.flatMap((a) => [...a.content.matchAll(/from '(\.\/[^']+)'/g)].map((m) => m[1] ?? ''));
      expect(relative.length, name).toBeGreaterThan(0);
      for (const specifier of relative) expect(specifier.endsWith('.js'), `${name}: ${specifier}`).toBe(mode.expect.extension === '.js');
      const engine = code.find((a) => a.path === 'idempotency.ts')?.content ?? '';
      // A default import of a CommonJS driver is undefined at run time without esModuleInterop.
      if (mode.expect.format === 'cjs') expect(engine, name).not.toMatch(/^import (pg|mysql) from/m);
      const out = join(root, 'src', name);
      writeArtifacts(out, code);
      const usage = usageFile(answers.stack.framework, code, mode.expect.extension);
      writeFileSync(join(out, 'usage.ts'), usage);
      sources.push(usage, ...code.map((a) => a.content));
    }
    // TypeScript here is 6.x, where node10 must be named (and acknowledged as deprecated); the
    // stock NestJS tsconfig leaves it unset because TypeScript 5 defaults commonjs to node10.
    writeProjectFiles(root, mode, {
      include: ['src/**/*.ts'],
      compilerOptions: { types: ['node'], noEmit: true, ...(mode.expect.moduleResolution === 'node10' ? { moduleResolution: 'node10', ignoreDeprecations: '6.0' } : {}) },
    });
    const packages = bareImports(sources);
    expect(linkNodeModules(root, packages)).toEqual([]);
    // Every runtime subpath imported is one the runtime's package.json exports.
    const exported = Object.keys((JSON.parse(readFileSync(join(REPO, 'packages/runtime/package.json'), 'utf8')) as { exports: Record<string, unknown> }).exports);
    for (const source of sources) {
      for (const match of source.matchAll(/from '@idempotency-builder\/runtime(\/[^']+)?'/g)) expect(exported).toContain(`.${match[1] ?? ''}`);
    }
    expect(await typeCheck(root)).toBe('');
  }, 240_000);
});

describe('the document shows the level', () => {
  it('in the inputs table, with the file:line of each setting', async () => {
    const dir = copyFixture('fixtures/nestjs-mysql-adyen', 'doc-level');
    const { markdown } = await design(dir);
    expect(markdown).toMatch(/Language level \| module commonjs \(tsconfig\.json:1\); moduleResolution node10 \(assumed\); target es2022 \(tsconfig\.json:1\)/);
    expect(markdown).toContain('imported by name');
  });
});

const javac = await serviceAvailable('Java toolchain (javac, java)', () => Promise.all([run('javac', ['-version']), run('java', ['-version'])]));

describe.skipIf(!javac)('Java at the project’s release', () => {
  it.each([11, 17])('release %i read from <java.version>: javac --release compiles it and its JUnit suite passes', async (release) => {
    const pom = (await readFile(resolve(HERE, 'fixtures/spring-postgres/pom.xml'), 'utf8')).replace('</parent>', `</parent>\n  <properties>\n    <java.version>${release}</java.version>\n  </properties>`);
    const dir = copyFixture('fixtures/spring-postgres', `java-${release}`, { 'pom.xml': pom });
    const { answers, artifacts } = await design(dir);
    expect(answers.stack.level?.java?.release).toBe(release);
    expect(answers.stack.level?.locations['java.release']).toMatch(/^pom\.xml:\d+$/);
    const data = artifacts.find((a) => a.path === 'ProjectData.java')?.content ?? '';
    // Text blocks are Java 15: below it the data is joined string literals.
    expect(data.includes('"""')).toBe(release >= 15);
    const out = join(temp(`javac-${release}`), 'src');
    writeArtifacts(out, artifacts.filter((a) => a.language === 'java'));
    const result = await compileAndTestJava(out, 'com.example.idempotency.IdempotencyEngineTest', { release });
    expect(result.output).toBe('');
    expect(result.testsPassed, result.testOutput).toBe(true);
  }, 180_000);
});

describe.skipIf(!javac)('ProjectData below release 15', () => {
  it('joined string literals hold the JSON byte for byte: quotes, backslashes, tabs, accents, astral characters', async () => {
    const json = `${JSON.stringify({ title: 'Zahlung für „Bestellung“ 😀', path: 'C:\\tmp\t"x"', empty: '' }, null, 2)}\n`;
    const dir = temp('java-data');
    writeFileSync(join(dir, 'ProjectData.java'), projectDataJava(json, 11));
    writeFileSync(join(dir, 'Print.java'), 'package com.example.idempotency;\npublic class Print { public static void main(String[] a) throws Exception { System.out.write(ProjectData.JSON.getBytes(java.nio.charset.StandardCharsets.UTF_8)); System.out.flush(); } }\n');
    await run('javac', ['--release', '11', '-encoding', 'US-ASCII', '-d', join(dir, 'out'), join(dir, 'ProjectData.java'), join(dir, 'Print.java')]);
    const { stdout } = await run('java', ['-cp', join(dir, 'out'), 'com.example.idempotency.Print'], { encoding: 'utf8' });
    expect(stdout).toBe(json);
  }, 60_000);
});

const go = await serviceAvailable('Go toolchain (go)', () => run('go', ['version']));
const gin = go && (await serviceAvailable("Debian's gin (golang-github-gin-gonic-gin-dev)", () => access(join(DEBIAN_GOPATH, 'src/github.com/gin-gonic/gin/gin.go'))));

describe.skipIf(!go)('Go in the project’s module', () => {
  const moduleEnv = { ...process.env, GOFLAGS: '-mod=mod', GOPROXY: 'off', GOTOOLCHAIN: 'local', GO111MODULE: 'on', GOPATH: join(REPO, '.tmp', 'gopath-modules') };

  it('module path and go version from go.mod: go vet, go build and go test pass inside that module; below the floor it does not build', async () => {
    const dir = copyFixture('fixtures/go-redis', 'go-module');
    const { answers, artifacts } = await design(dir);
    expect(answers.stack.level?.go).toEqual({ version: '1.22', module: 'example.com/transfers' });
    expect(artifacts.find((a) => a.path === 'go.mod')?.content).toMatch(/^module example\.com\/transfers\/idempotency\n\ngo 1\.22\n/);
    // The project's own module (its path and go version; its requirements cannot be fetched here)
    // with the package in idempotency/: the stdlib-only part, without the driver conformance test.
    const project = temp('go-project');
    const files = artifacts.filter((a) => a.language === 'go' || a.path === 'project.json').filter((a) => !a.path.startsWith('conformance'));
    writeArtifacts(join(project, 'idempotency'), files);
    writeFileSync(join(project, 'main.go'), 'package main\n\nimport (\n\t"net/http"\n\n\t"example.com/transfers/idempotency"\n)\n\nfunc main() {\n\t_ = idempotency.Fingerprint\n\t_ = http.ListenAndServe\n}\n');
    const build = async (version: string) => {
      writeFileSync(join(project, 'go.mod'), `module example.com/transfers\n\ngo ${version}\n`);
      await run('go', ['vet', './...'], { cwd: project, env: moduleEnv, timeout: 120_000 });
      await run('go', ['build', './...'], { cwd: project, env: moduleEnv, timeout: 120_000 });
      return (await run('go', ['test', '-count=1', './idempotency'], { cwd: project, env: moduleEnv, timeout: 120_000 })).stdout;
    };
    expect(await build('1.22')).toMatch(/^ok\s+example\.com\/transfers\/idempotency/m);
    // The go directive is the language version: the floor the plan states is real.
    await expect(build('1.17')).rejects.toThrow(/requires go1\.18/);
  }, 240_000);

  it.skipIf(!gin)('the Gin glue (build tag gin) compiles against Debian’s gin, runs once per key, and leaves the body to the handler', async () => {
    const dir = copyFixture('fixtures/go-redis', 'go-gin');
    const { answers, artifacts } = await design(dir);
    expect(answers.stack.framework).toBe('gin');
    const action = answers.actions.find((a) => a.kind === 'http');
    expect(action).toBeDefined();
    // GOPATH mode: Debian ships gin as GOPATH sources (/usr/share/gocode), not as a module cache.
    const root = temp('go-gopath');
    const pkg = join(root, 'gopath/src/example.com/transfers/idempotency');
    mkdirSync(pkg, { recursive: true });
    writeArtifacts(pkg, artifacts.filter((a) => (a.language === 'go' || a.path === 'project.json') && !a.path.startsWith('conformance')));
    writeFileSync(join(pkg, 'gin_usage_test.go'), ginUsageTest(action?.name ?? '', action?.significantFields ?? []));
    const env = goEnv(root);
    await run('go', ['vet', '-tags', 'gin', '.'], { cwd: pkg, env, timeout: 180_000 });
    const { stdout } = await run('go', ['test', '-count=1', '-tags', 'gin', '-v', '-run', 'TestGinGlue', '.'], { cwd: pkg, env, timeout: 180_000 });
    expect(stdout).toMatch(/--- PASS: TestGinGlue/);
  }, 240_000);
});

const python = await serviceAvailable('Python 3 (/usr/bin/python3)', () => run(PYTHON, ['--version']));

describe.skipIf(!python)('Python at the project’s oldest version', () => {
  it('requires-python read from pyproject; the package has that version’s syntax and runs there; a project below the floor is told', async () => {
    const dir = copyFixture('fixtures/fastapi-postgres-paypal', 'python-level');
    const { answers, artifacts } = await design(dir);
    expect(answers.stack.level?.python?.minimum).toBe('3.11');
    expect(answers.stack.level?.locations['python.minimum']).toBe('pyproject.toml:4');
    const out = temp('python-out');
    const files = artifacts.filter((a) => a.language === 'python');
    writeArtifacts(out, files);
    const paths = files.map((a) => join(out, a.path));
    await run(PYTHON, ['-m', 'py_compile', ...paths]);
    // The project's minimum and the templates' floor (3.8).
    for (const minimum of ['3.11', '3.8']) {
      const { stdout } = await run(PYTHON, [LEVEL_CHECK, minimum, ...paths]).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? String(error) }));
      expect(stdout, minimum).toBe('');
    }
    const old = await design(copyFixture('fixtures/fastapi-postgres-paypal', 'python-old', { 'pyproject.toml': '[project]\nname = "orders-api"\nrequires-python = ">=3.7"\ndependencies = ["fastapi"]\n' }));
    expect(old.markdown).toContain('needs 3.8 (typing.Protocol)');
  }, 120_000);

  it('the check fails on what an older Python cannot run', async () => {
    const file = join(temp('python-bad'), 'bad.py');
    writeFileSync(file, 'def f(x: int | None) -> int:\n    match x:\n        case 1:\n            return 1\n    return 0\n');
    const failed = await run(PYTHON, [LEVEL_CHECK, '3.9', file]).then(() => '', (error: { stdout?: string }) => error.stdout ?? '');
    expect(failed).toMatch(/Pattern matching is only supported in Python 3\.10/);
    expect(failed).toMatch(/X \| Y type evaluated at run time needs Python 3\.10/);
  });
});
