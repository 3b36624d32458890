/**
 * Request fingerprints across languages: the generated Go, Python and Java fingerprint modules hash
 * exactly what the runtime's `requestFingerprint` hashes — vectors computed by the runtime, each
 * body parsed by the language's own JSON reader and run through its generated code.
 */
import { execFile } from 'node:child_process';
import { access } from 'node:fs/promises';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { requestFingerprint, resolveFingerprintOptions } from '../../runtime/src/adapters/http/request-fingerprint.js';
import { serviceAvailable } from '../../runtime/test/support/services.js';
import { generate, VARIANTS, type Language } from './support/go-python-java-golden.js';
import { goEnv, writeGoPackage } from './support/go-toolchain.js';
import { PYTHON, writePythonPackage } from './support/python-toolchain.js';
import { makeWorkspace, writeArtifacts } from './support/workspace.js';

const run = promisify(execFile);
const go = await serviceAvailable('Go toolchain (go)', () => run('go', ['version']));
const python = await serviceAvailable('Debian Python (/usr/bin/python3)', () => access(PYTHON));
const java = await serviceAvailable('JDK (javac, java)', () => Promise.all([run('javac', ['-version']), run('java', ['-version'])]));

const workspace = makeWorkspace('fingerprint-languages');
afterAll(() => workspace.remove());

interface Vector {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  /** Empty: the whole body (the code named no significant field). */
  readonly fields: readonly string[];
  /** The raw JSON body each language parses itself; null: no body was sent. */
  readonly body: string | null;
  /** The raw query string without "?"; null: none. */
  readonly query: string | null;
}

/** Every language prints this for a body the runtime refuses (its JSON or its fingerprint). */
const ERROR = 'ERROR';
const FIELDS = ['amount', 'currency'];
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

const VECTORS: Vector[] = (
  [
    ['fields present', FIELDS, '{"amount":4999,"currency":"EUR","note":"ignored"}'],
    ['field explicitly null', FIELDS, '{"amount":4999,"currency":null}'],
    ['field missing', FIELDS, '{"amount":4999}'],
    ['body {} (every field missing)', FIELDS, '{}'],
    ['no body, fields', FIELDS, null],
    ['JSON null body', FIELDS, 'null'],
    ['JSON string body', FIELDS, '"amount=4999"'],
    ['nested dot paths', ['recipient.id', 'recipient.bank.iban', 'amount'], '{"recipient":{"id":"acct_1","bank":{"iban":"DE89"}},"amount":1.5}'],
    ['nested path through a non-object', ['recipient.id'], '{"recipient":"acct_1"}'],
    ['nested path to null', ['recipient.id'], '{"recipient":{"id":null}}'],
    ['nested path under null', ['recipient.id'], '{"recipient":null}'],
    ['array indexes and length', ['items.0.sku', 'items.1', 'items.01', 'items.length', 'items.9'], '{"items":[{"sku":"a"},"b"]}'],
    ['field holding an object', ['payer'], '{"payer":{"b":1,"a":[true,false,null]}}'],
    ['whole body, excluded keys at the top and at depth', [], '{"b":1,"a":{"timestamp":"2026-12-03","x":[1,2]},"timestamp":"t","requestId":"r","nonce":5,"sent_at":1}'],
    ['whole body, same intent without the top-level excluded keys', [], '{"a":{"timestamp":"2026-12-03","x":[1,2]},"b":1}'],
    ['whole body, a different timestamp at depth', [], '{"a":{"timestamp":"2027-01-01","x":[1,2]},"b":1}'],
    ['whole body array', [], '[1,{"timestamp":1},"x"]'],
    ['whole body {}', [], '{}'],
    ['no body, whole body', [], null],
    ['unicode strings and UTF-16 key order', [], '{"name":"ünïcode 🙂 日本","é":1,"é":2,"😀":3,"｡":4,"a":5,"Z":6,"":7}'],
    ['escapes', [], '{"s":"\\u0001\\b\\f\\n\\r\\t\\"\\\\/\\u007f\\u2028\\u2029<>&","\\n":0}'],
    ['unicode in fields', ['name'], '{"name":"Zoë 🙂"}'],
    ['numbers 1.5, small, integral floats, -0', [], '{"a":1.5,"b":1e-7,"c":0.000001,"d":1.5e-7,"e":5.0,"f":-0,"g":-0.0,"h":0.1,"i":123.456e5,"j":4.35,"k":1.2e-300,"l":9007199254740991,"m":-2.5e-10,"n":123456789.125}'],
    ['number 1e21 (unsafe integer)', [], '{"amount":1e21}'],
    ['number 1e21 in a field', ['amount'], '{"amount":1e21}'],
    ['integer past 2^53', ['amount'], '{"amount":9007199254740993}'],
    ['number overflowing to Infinity', [], '{"amount":1E400}'],
    ['256 levels deep', [], nested(256)],
    ['257 levels deep', [], nested(257)],
    ['invalid JSON', [], '{"amount":'],
  ] as const
).map(([name, fields, body]) => ({ name, method: 'POST', path: '/payments', fields, body, query: null }));

const QUERIES = ['b=2&a=1&a=0', 'amount=1', 'c=%E2%82%AC+x&d&=e&&f=%zz&g=%E2%82A&h=%C3&i=%F0%9F%99%82', '&', 'x=1=2&%C3%A9=&e=%65', 'é=1&%F0%9F%98%80=2&%EF%BD%A1=3'];
for (const query of QUERIES) {
  VECTORS.push({ name: `query ${query}, fields`, method: 'POST', path: '/payments', fields: ['amount'], body: '{"amount":1}', query });
}
VECTORS.push({ name: 'query, whole body', method: 'POST', path: '/payments', fields: [], body: '{"amount":1,"timestamp":2}', query: 'amount=1000000' });
VECTORS.push({ name: 'query, no body', method: 'DELETE', path: '/payments/p_1', fields: [], body: null, query: 'reason=dup' });
VECTORS.push({ name: 'empty query string', method: 'POST', path: '/payments', fields: ['amount'], body: '{"amount":1}', query: '' });
VECTORS.push({ name: 'unicode path', method: 'PUT', path: '/zahlungen/über', fields: ['amount'], body: '{"amount":1}', query: null });

/** What the runtime's requestFingerprint answers (the runtime's adapters parse JSON with JSON.parse). */
function expected(vector: Vector): string {
  try {
    const body: unknown = vector.body === null ? undefined : JSON.parse(vector.body);
    const options = resolveFingerprintOptions(vector.fields.length > 0 ? { bodyFields: vector.fields } : {});
    return requestFingerprint({ method: vector.method, path: vector.path, body, query: vector.query ?? undefined }, options);
  } catch {
    return ERROR;
  }
}

const EXPECTED = VECTORS.map(expected);
const VARIANT = { go: VARIANTS.go[0]!, python: VARIANTS.python[0]!, java: VARIANTS.java[0]! } as const;
const files = (language: Language) => generate(language, VARIANT[language]);

const GO_MAIN = `package main

import (
	"encoding/json"
	"fmt"
	"os"

	fp "example.test/fingerprints/idempotency"
)

type vector struct {
	Method, Path string
	Fields       []string
	Body, Query  *string
}

func main() {
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	var vectors []vector
	if err := json.Unmarshal(data, &vectors); err != nil {
		panic(err)
	}
	out := make([]string, len(vectors))
	for i, v := range vectors {
		var body any
		query := ""
		if v.Query != nil {
			query = *v.Query
		}
		if v.Body != nil {
			if err := json.Unmarshal([]byte(*v.Body), &body); err != nil {
				out[i] = "${ERROR}"
				continue
			}
		}
		if out[i], err = fp.RequestFingerprint(v.Method, v.Path, v.Fields, body, query); err != nil {
			out[i] = "${ERROR}"
		}
	}
	encoded, _ := json.Marshal(out)
	fmt.Print(string(encoded))
}
`;

const PY_MAIN = `import json
import sys

from idempotency.fingerprint import request_fingerprint


def answer(v):
    try:
        body = None if v["body"] is None else json.loads(v["body"])
        return request_fingerprint(v["method"], v["path"], v["fields"], body, v["query"])
    except (ValueError, RecursionError):
        return "${ERROR}"


with open(sys.argv[1], encoding="utf-8") as source:
    print(json.dumps([answer(v) for v in json.load(source)]))
`;

const JAVA_MAIN = `package com.example.idempotency;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

public final class FingerprintVectorsMain {
    @SuppressWarnings("unchecked")
    public static void main(String[] args) throws Exception {
        List<Object> vectors = (List<Object>) Json.parse(Files.readString(Path.of(args[0]), StandardCharsets.UTF_8));
        StringBuilder out = new StringBuilder("[");
        for (Object item : vectors) {
            Map<String, Object> v = (Map<String, Object>) item;
            String value;
            try {
                Object body = v.get("body") == null ? null : Json.parse((String) v.get("body"));
                value = Fingerprint.request((String) v.get("method"), (String) v.get("path"), (List<String>) v.get("fields"), body, (String) v.get("query"));
            } catch (RuntimeException | StackOverflowError e) {
                value = "${ERROR}";
            }
            out.append(out.length() > 1 ? "," : "").append('"').append(value).append('"');
        }
        System.out.print(out.append(']'));
    }
}
`;

const vectorFile = (): string => {
  const file = join(workspace.dir, 'vectors.json');
  writeFileSync(file, JSON.stringify(VECTORS));
  return file;
};

/** The disagreements, readable. */
function mismatches(actual: readonly string[]): { name: string; expected: string; actual: string | undefined }[] {
  return VECTORS.flatMap((v, i) => (actual[i] === EXPECTED[i] ? [] : [{ name: v.name, expected: EXPECTED[i]!, actual: actual[i] }]));
}

const at = (name: string) => EXPECTED[VECTORS.findIndex((v) => v.name === name)];

describe('request fingerprints in generated Go, Python and Java equal the runtime’s', () => {
  it('the vectors tell apart what the runtime tells apart, and refuse what it refuses', () => {
    expect(VECTORS.length).toBeGreaterThan(35);
    expect(at('field explicitly null')).not.toBe(at('field missing'));
    expect(at('no body, fields')).toBe(at('JSON null body'));
    expect(at('no body, fields')).not.toBe(at('body {} (every field missing)'));
    expect(at('whole body, excluded keys at the top and at depth')).toBe(at('whole body, same intent without the top-level excluded keys'));
    // The runtime drops excluded paths from the top of the body only: a nested timestamp counts.
    expect(at('whole body, a different timestamp at depth')).not.toBe(at('whole body, same intent without the top-level excluded keys'));
    expect(at('256 levels deep')).not.toBe(ERROR);
    for (const name of ['number 1e21 (unsafe integer)', 'number 1e21 in a field', 'integer past 2^53', 'number overflowing to Infinity', '257 levels deep', 'invalid JSON']) {
      expect(at(name), name).toBe(ERROR);
    }
    expect(EXPECTED.filter((value) => value === ERROR)).toHaveLength(6);
    // No query string and an empty one fingerprint alike; any query string changes the fingerprint.
    const plain = { name: 'plain', method: 'POST', path: '/payments', fields: ['amount'], body: '{"amount":1}', query: null };
    expect(at('empty query string')).toBe(expected(plain));
    for (const query of QUERIES) expect(at(`query ${query}, fields`)).not.toBe(expected(plain));
  });

  it.skipIf(!go)('Go', async () => {
    const dir = writeGoPackage(workspace.dir, 'fingerprints', files('go'));
    const main = join(dir, '..', 'cmd');
    mkdirSync(main, { recursive: true });
    writeFileSync(join(main, 'main.go'), GO_MAIN);
    const { stdout } = await run('go', ['run', '.', vectorFile()], { cwd: main, env: goEnv(workspace.dir), timeout: 120_000 });
    expect(mismatches(JSON.parse(stdout) as string[])).toEqual([]);
  }, 150_000);

  it.skipIf(!python)('Python', async () => {
    const cwd = writePythonPackage(workspace.dir, 'fingerprints', files('python'));
    writeFileSync(join(cwd, 'vectors_main.py'), PY_MAIN);
    const { stdout } = await run(PYTHON, ['vectors_main.py', vectorFile()], { cwd, timeout: 60_000 });
    expect(mismatches(JSON.parse(stdout) as string[])).toEqual([]);
  }, 60_000);

  it.skipIf(!java)('Java', async () => {
    const dir = join(workspace.dir, 'java');
    const needed = new Set(['Fingerprint.java', 'Project.java', 'ProjectData.java', 'Json.java']);
    const generated = files('java').filter((file) => needed.has(file.path.split('/').pop()!));
    expect(generated).toHaveLength(needed.size);
    writeArtifacts(dir, [...generated, { path: 'FingerprintVectorsMain.java', content: JAVA_MAIN } as (typeof generated)[number]]);
    const sources = [...generated.map((file) => join(dir, file.path)), join(dir, 'FingerprintVectorsMain.java')];
    const classes = join(dir, '__classes__');
    await run('javac', ['-proc:none', '-d', classes, ...sources], { cwd: dir, timeout: 120_000 });
    const { stdout } = await run('java', ['-cp', classes, 'com.example.idempotency.FingerprintVectorsMain', vectorFile()], { cwd: dir, timeout: 60_000 });
    expect(mismatches(JSON.parse(stdout) as string[])).toEqual([]);
  }, 150_000);

  it('every language’s template is the one emitted (no stale copy)', () => {
    const template = (path: string) => readFileSync(join(import.meta.dirname, '..', 'templates', path), 'utf8');
    expect(files('go').find((file) => file.path === 'fingerprint.go')?.content).toBe(template('go/fingerprint.go'));
    expect(files('python').find((file) => file.path === 'fingerprint.py')?.content).toBe(template('python/fingerprint.py'));
    expect(files('java').find((file) => file.path.endsWith('Fingerprint.java'))?.content).toBe(template('java/Fingerprint.java'));
  });
});
