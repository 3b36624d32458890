/**
 * Provider keys across languages: the generated Go, Python and Java provider_keys derive exactly
 * what the runtime's TypeScript derives (payments/provider-keys.ts) for the same intent — vectors
 * computed by the runtime, run through each language's generated code with the real toolchain.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { access } from 'node:fs/promises';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import {
  adyenIdempotencyKey,
  adyenReference,
  DEFAULT_PAYPAL_NAMESPACE,
  fitProviderKey,
  intentMaterial,
  paypalRequestId,
  stripeIdempotencyKey,
} from '@idempotency-builder/runtime/payments';
import { serviceAvailable } from '../../runtime/test/support/services.js';
import { BRAINTREE_ORDER_ID_MAX_LENGTH } from '../src/design/plan/providers.js';
import { generate, VARIANTS, type Language } from './support/go-python-java-golden.js';
import { goEnv, writeGoPackage } from './support/go-toolchain.js';
import { PYTHON, writePythonPackage } from './support/python-toolchain.js';
import { makeWorkspace, writeArtifacts } from './support/workspace.js';

const run = promisify(execFile);
const go = await serviceAvailable('Go toolchain (go)', () => run('go', ['version']));
const python = await serviceAvailable('Debian Python (/usr/bin/python3)', () => access(PYTHON));
const java = await serviceAvailable('JDK (javac, java)', () => Promise.all([run('javac', ['-version']), run('java', ['-version'])]));

const workspace = makeWorkspace('provider-keys');
afterAll(() => workspace.remove());

type Op = 'material' | 'fit' | 'stripe' | 'adyenKey' | 'adyenReference' | 'paypal' | 'paypalIn' | 'endToEnd' | 'braintree';
interface Case {
  readonly op: Op;
  readonly key: string;
  readonly scope: string;
  /** null: no step. */
  readonly step: string | null;
  readonly value: string;
  readonly max: number;
  readonly namespace: string;
}

/** Every language prints this for a call the runtime refuses (invalid key, scope, step or limit). */
const ERROR = 'ERROR';
/** The project whose generated code is run: Adyen, so every variant below emits provider keys. */
const VARIANT = { go: VARIANTS.go[1]!, python: VARIANTS.python[1]!, java: VARIANTS.java[1]! } as const;
const files = (language: Language) => generate(language, VARIANT[language]);
const projectNamespace = (JSON.parse(files('go').find((file) => file.path === 'project.json')!.content) as { paypalNamespace: string }).paypalNamespace;

const KEYS = ['order-7', 'usr_7fQ9x_createPayment_4b9e2a5c', 'k~with~tilde', 'a'.repeat(255), 'x'.repeat(300), 'has space', 'ünïcode', ''];
const SCOPES = ['global', 'user_42', 'usér-🙂', 'u'.repeat(128), 'u'.repeat(129), 'bad scope', 'tab\t', '\u00a0nbsp', 'nel\u0085ok', '🙂'.repeat(64), '🙂'.repeat(65)];
const STEPS = [null, 'charge', 'capture.2', 's'.repeat(32), 'bad_step', 's'.repeat(33)];
const VALUES = ['plain', 'with spaces and ünïcode 🙂', 'a'.repeat(300), 'b'.repeat(255), '🙂'.repeat(200), '', 'é'.repeat(50), 'tilde~x', 'x:y_z.w-1'];
const MAXES = [45, 46, 64, 80, 255];

function vectors(): Case[] {
  const base = { key: '', scope: '', step: null, value: '', max: 0, namespace: DEFAULT_PAYPAL_NAMESPACE };
  const cases: Case[] = [];
  for (const key of KEYS) {
    for (const scope of SCOPES) {
      for (const step of STEPS) {
        for (const op of ['material', 'stripe', 'adyenKey', 'paypal', 'paypalIn', 'endToEnd', 'braintree'] as const) cases.push({ ...base, op, key, scope, step });
        cases.push({ ...base, op: 'adyenReference', key, scope, step: step ?? 'charge' });
      }
    }
  }
  cases.push({ ...base, op: 'paypalIn', key: 'order-7', scope: 'user_42', namespace: 'not-a-uuid' });
  cases.push({ ...base, op: 'paypalIn', key: 'order-7', scope: 'user_42', namespace: '6BA7B811-9DAD-11D1-80B4-00C04FD430C8' });
  for (const value of VALUES) for (const max of MAXES) cases.push({ ...base, op: 'fit', value, max });
  return cases;
}

/** What the runtime's TypeScript answers (the generated TypeScript's endToEndId included). */
function expected(c: Case): string {
  const intent = { key: c.key, scope: c.scope, ...(c.step === null ? {} : { step: c.step }) };
  try {
    switch (c.op) {
      case 'material':
        return intentMaterial(intent);
      case 'fit':
        return fitProviderKey(c.value, c.max);
      case 'stripe':
        return stripeIdempotencyKey(intent);
      case 'adyenKey':
        return adyenIdempotencyKey(intent);
      case 'adyenReference':
        return adyenReference({ key: c.key, scope: c.scope }, c.step!);
      case 'paypal':
        return paypalRequestId(intent, projectNamespace);
      case 'paypalIn':
        return paypalRequestId(intent, c.namespace);
      case 'endToEnd':
        return createHash('sha256').update(intentMaterial(intent)).digest('hex').slice(0, 35);
      case 'braintree':
        // The generated TypeScript's braintreeOrderId, over the runtime's parts (the runtime has no Braintree function).
        return fitProviderKey(intentMaterial(intent), BRAINTREE_ORDER_ID_MAX_LENGTH);
    }
  } catch {
    return ERROR;
  }
}

const CASES = vectors();
const EXPECTED = CASES.map(expected);

const GO_MAIN = `package main

import (
	"encoding/json"
	"fmt"
	"os"

	keys "example.test/vectors/idempotency"
)

type vector struct {
	Op, Key, Scope, Value, Namespace string
	Step                             *string
	Max                              int
}

func main() {
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	var cases []vector
	if err := json.Unmarshal(data, &cases); err != nil {
		panic(err)
	}
	out := make([]string, len(cases))
	for i, c := range cases {
		intent := keys.Intent{Key: c.Key, Scope: c.Scope}
		if c.Step != nil {
			intent.Step = *c.Step
		}
		var value string
		switch c.Op {
		case "material":
			value, err = keys.IntentMaterial(intent)
		case "fit":
			value, err = keys.FitProviderKey(c.Value, c.Max)
		case "stripe":
			value, err = keys.StripeIdempotencyKey(intent)
		case "adyenKey":
			value, err = keys.AdyenIdempotencyKey(intent)
		case "adyenReference":
			value, err = keys.AdyenReference(keys.Intent{Key: c.Key, Scope: c.Scope}, *c.Step)
		case "paypal":
			value, err = keys.PaypalRequestID(intent)
		case "paypalIn":
			value, err = keys.PaypalRequestIDIn(c.Namespace, intent)
		case "endToEnd":
			value, err = keys.EndToEndID(intent)
		case "braintree":
			value, err = keys.BraintreeOrderID(intent)
		default:
			panic("unknown op " + c.Op)
		}
		if err != nil {
			value = "${ERROR}"
		}
		out[i] = value
	}
	encoded, _ := json.Marshal(out)
	fmt.Print(string(encoded))
}
`;

const PY_MAIN = `import json
import sys

from idempotency import provider_keys as keys

OPS = {
    "material": lambda c: keys.intent_material(c["key"], c["scope"], c["step"]),
    "fit": lambda c: keys.fit_provider_key(c["value"], c["max"]),
    "stripe": lambda c: keys.stripe_idempotency_key(c["key"], c["scope"], c["step"]),
    "adyenKey": lambda c: keys.adyen_idempotency_key(c["key"], c["scope"], c["step"]),
    "adyenReference": lambda c: keys.adyen_reference(c["key"], c["scope"], c["step"]),
    "paypal": lambda c: keys.paypal_request_id(c["key"], c["scope"], c["step"]),
    "paypalIn": lambda c: keys.paypal_request_id(c["key"], c["scope"], c["step"], c["namespace"]),
    "endToEnd": lambda c: keys.end_to_end_id(c["key"], c["scope"], c["step"]),
    "braintree": lambda c: keys.braintree_order_id(c["key"], c["scope"], c["step"]),
}


def answer(case):
    try:
        return OPS[case["op"]](case)
    except ValueError:
        return "${ERROR}"


with open(sys.argv[1], encoding="utf-8") as source:
    print(json.dumps([answer(case) for case in json.load(source)]))
`;

const JAVA_MAIN = `package com.example.idempotency;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

public final class VectorsMain {
    @SuppressWarnings("unchecked")
    public static void main(String[] args) throws Exception {
        List<Object> cases = (List<Object>) Json.parse(Files.readString(Path.of(args[0]), StandardCharsets.UTF_8));
        StringBuilder out = new StringBuilder("[");
        for (Object item : cases) {
            Map<String, Object> c = (Map<String, Object>) item;
            String key = (String) c.get("key"), scope = (String) c.get("scope"), step = (String) c.get("step");
            String value;
            try {
                value = switch ((String) c.get("op")) {
                    case "material" -> ProviderKeys.intentMaterial(key, scope, step);
                    case "fit" -> ProviderKeys.fitProviderKey((String) c.get("value"), ((Number) c.get("max")).intValue());
                    case "stripe" -> ProviderKeys.stripeIdempotencyKey(key, scope, step);
                    case "adyenKey" -> ProviderKeys.adyenIdempotencyKey(key, scope, step);
                    case "adyenReference" -> ProviderKeys.adyenReference(key, scope, step);
                    case "paypal" -> ProviderKeys.paypalRequestId(key, scope, step);
                    case "paypalIn" -> ProviderKeys.paypalRequestIdIn((String) c.get("namespace"), key, scope, step);
                    case "endToEnd" -> ProviderKeys.endToEndId(key, scope, step);
                    case "braintree" -> ProviderKeys.braintreeOrderId(key, scope, step);
                    default -> throw new IllegalStateException("unknown op");
                };
            } catch (IllegalArgumentException e) {
                value = "${ERROR}";
            }
            if (out.length() > 1) out.append(',');
            out.append('"');
            for (int i = 0; i < value.length(); i++) {
                char ch = value.charAt(i);
                if (ch == '"' || ch == '\\\\') out.append('\\\\').append(ch);
                else if (ch < 0x20 || ch > 0x7e) out.append(String.format("\\\\u%04x", (int) ch));
                else out.append(ch);
            }
            out.append('"');
        }
        System.out.print(out.append(']'));
    }
}
`;

const vectorFile = (): string => {
  const file = join(workspace.dir, 'vectors.json');
  writeFileSync(file, JSON.stringify(CASES));
  return file;
};

/** The first few disagreements, readable. */
function mismatches(actual: readonly string[]): { case: Case; expected: string; actual: string | undefined }[] {
  return CASES.flatMap((c, i) => (actual[i] === EXPECTED[i] ? [] : [{ case: c, expected: EXPECTED[i]!, actual: actual[i] }])).slice(0, 5);
}

describe('provider keys in generated Go, Python and Java equal the runtime’s', () => {
  it('the vectors cover plain, hashed, unicode, refused and stepped keys', () => {
    expect(CASES.length).toBeGreaterThan(2_000);
    expect(EXPECTED.filter((value) => value.includes('~h')).length).toBeGreaterThan(100);
    expect(EXPECTED.filter((value) => value === ERROR).length).toBeGreaterThan(100);
    expect(EXPECTED.filter((value) => value !== ERROR && !value.includes('~h')).length).toBeGreaterThan(300);
    expect(EXPECTED).toContain(fitProviderKey('🙂'.repeat(200), 255));
    expect(new Set(EXPECTED.filter((_, i) => CASES[i]!.op === 'stripe' && EXPECTED[i] !== ERROR)).size).toBeGreaterThan(50);
    // The limits come from the runtime: a generated project.json carries them.
    const data = JSON.parse(files('python').find((file) => file.path === 'project.json')!.content) as { providerKeyLimits: Record<string, number> };
    expect(data.providerKeyLimits).toEqual({ stripe: 255, adyenKey: 64, adyenReference: 80, braintreeOrderId: BRAINTREE_ORDER_ID_MAX_LENGTH });
  });

  it.skipIf(!go)('Go', async () => {
    const dir = writeGoPackage(workspace.dir, 'vectors', files('go'));
    const main = join(dir, '..', 'cmd');
    mkdirSync(main, { recursive: true });
    writeFileSync(join(main, 'main.go'), GO_MAIN);
    const { stdout } = await run('go', ['run', '.', vectorFile()], { cwd: main, env: goEnv(workspace.dir), timeout: 120_000, maxBuffer: 64 << 20 });
    const actual = JSON.parse(stdout) as string[];
    expect(mismatches(actual)).toEqual([]);
    expect(actual).toEqual(EXPECTED);
  }, 150_000);

  it.skipIf(!python)('Python', async () => {
    const cwd = writePythonPackage(workspace.dir, 'vectors', files('python'));
    writeFileSync(join(cwd, 'vectors_main.py'), PY_MAIN);
    const { stdout } = await run(PYTHON, ['vectors_main.py', vectorFile()], { cwd, timeout: 60_000, maxBuffer: 64 << 20 });
    const actual = JSON.parse(stdout) as string[];
    expect(mismatches(actual)).toEqual([]);
    expect(actual).toEqual(EXPECTED);
  }, 60_000);

  it.skipIf(!java)('Java', async () => {
    const dir = join(workspace.dir, 'java');
    const needed = new Set(['ProviderKeys.java', 'Project.java', 'ProjectData.java', 'Json.java', 'Fingerprint.java']);
    const generated = files('java').filter((file) => needed.has(file.path.split('/').pop()!));
    expect(generated).toHaveLength(needed.size);
    writeArtifacts(dir, [...generated, { path: 'VectorsMain.java', content: JAVA_MAIN } as (typeof generated)[number]]);
    const sources = [...generated.map((file) => join(dir, file.path)), join(dir, 'VectorsMain.java')];
    const classes = join(dir, '__classes__');
    await run('javac', ['-proc:none', '-d', classes, ...sources], { cwd: dir, timeout: 120_000 });
    const { stdout } = await run('java', ['-cp', classes, 'com.example.idempotency.VectorsMain', vectorFile()], { cwd: dir, timeout: 60_000, maxBuffer: 64 << 20 });
    const actual = JSON.parse(stdout) as string[];
    expect(mismatches(actual)).toEqual([]);
    expect(actual).toEqual(EXPECTED);
  }, 150_000);

  it('every language’s template is the one emitted (no stale copy)', () => {
    const template = (path: string) => readFileSync(join(import.meta.dirname, '..', 'templates', path), 'utf8');
    expect(files('go').find((file) => file.path === 'provider_keys.go')?.content).toBe(template('go/provider_keys.go'));
    expect(files('python').find((file) => file.path === 'provider_keys.py')?.content).toBe(template('python/provider_keys.py'));
    expect(files('java').find((file) => file.path.endsWith('ProviderKeys.java'))?.content).toBe(template('java/ProviderKeys.java'));
  });
});
