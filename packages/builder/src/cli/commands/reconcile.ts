/**
 * `idempotency-builder reconcile --provider stripe`: the runtime's reconciliation on demand. Each
 * PROCESSING record whose lease ended is looked up at the provider under the intent's metadata;
 * a charge found completes the record with the provider's result, none releases it so a retry can
 * run, two raise the split-brain alarm and stay for a person.
 */
import type { Command } from 'commander';
import pc from 'picocolors';
import { createEncryptionCodec, createIdempotency, type ResponseCodec } from '@idempotency-builder/runtime';
import { reconcile, stripeLookup, type ReconcileReport } from '@idempotency-builder/runtime/payments';
import { countFlag, durationFlag } from '../../ops/flags.js';
import { loadDriver, openStore, type OpenedStore } from '../../ops/open-store.js';
import { resolveStoreTarget, StoreTargetError, type StoreTargetInput } from '../../ops/store-target.js';

interface ReconcileFlags extends StoreTargetInput {
  readonly provider: string;
  readonly olderThan?: string;
  readonly limit?: string;
  readonly stripeApi?: string;
  readonly encryptionKeyEnv: string;
  readonly encryptionKeyId: string;
  readonly json?: boolean;
}

type StripeConstructor = new (apiKey: string, config?: Record<string, unknown>) => Parameters<typeof stripeLookup>[0];

/** The service's response codec: with the same key the service encrypts with, or none. */
function codecFrom(flags: ReconcileFlags): ResponseCodec | undefined {
  const material = process.env[flags.encryptionKeyEnv];
  if (!material) return undefined;
  const key = Buffer.from(material, 'base64');
  if (key.length !== 32) throw new StoreTargetError(`${flags.encryptionKeyEnv} must be base64 of 32 bytes (the key your service encrypts responses with).`);
  return createEncryptionCodec({ keys: { [flags.encryptionKeyId]: key }, activeKeyId: flags.encryptionKeyId });
}

/** A Stripe client from the user's project; `--stripe-api` points it at a Stripe-compatible mock. */
function stripeClient(flags: ReconcileFlags): Parameters<typeof stripeLookup>[0] {
  const apiKey = process.env.STRIPE_SECRET_KEY ?? process.env.STRIPE_API_KEY;
  if (!apiKey) throw new StoreTargetError('Set STRIPE_SECRET_KEY (a restricted key that can read PaymentIntents is enough).');
  const Stripe = loadDriver<StripeConstructor | { default: StripeConstructor }>('stripe', process.cwd());
  const Construct = typeof Stripe === 'function' ? Stripe : Stripe.default;
  const api = flags.stripeApi ? new URL(flags.stripeApi) : undefined;
  return new Construct(apiKey, api ? { host: api.hostname, port: Number(api.port), protocol: api.protocol.replace(':', '') } : undefined);
}

function print(report: ReconcileReport): void {
  process.stdout.write(`Examined ${report.examined} stuck record(s): ${report.completed} completed, ${report.released} released, ${report.splitBrain} split brain, ${report.skipped} skipped.\n`);
  for (const item of report.items) {
    const colour = item.action === 'split_brain' || item.action === 'error' ? pc.red : item.action === 'completed' ? pc.green : (s: string) => s;
    process.stdout.write(`  ${colour(item.action.padEnd(11))} ${item.key} (scope ${item.scope})${item.detail ? ` — ${item.detail}` : ''}\n`);
  }
}

/**
 * Registers `reconcile`.
 * @example registerReconcileCommand(program); // idempotency-builder reconcile --provider stripe --store postgres://…
 */
export function registerReconcileCommand(program: Command): void {
  program
    .command('reconcile')
    .description('ask the payment provider about orphaned PROCESSING records and complete or release them')
    .requiredOption('--provider <name>', 'stripe (Adyen and PayPal: call reconcile() from @idempotency-builder/runtime/payments with your lookup)')
    .option('--store <url>', 'sqlite:<file>, postgres://… or redis://… (default: $IDEMPOTENCY_STORE_URL)')
    .option('--config <file>', 'JSON file with "store" and optionally "table", "schema", "prefix"')
    .option('--table <name>', 'table the service uses (SQL stores)')
    .option('--schema <name>', 'PostgreSQL schema')
    .option('--prefix <prefix>', 'Redis key prefix the service uses')
    .option('--older-than <duration>', "only leases that ended at least this long ago (Stripe's search lags about a minute)", '2m')
    .option('--limit <n>', 'at most this many records', '100')
    .option('--stripe-api <url>', 'a Stripe-compatible API base URL (a mock), instead of Stripe')
    .option('--encryption-key-env <name>', "environment variable holding the service's response encryption key (base64, 32 bytes)", 'IDEMPOTENCY_ENCRYPTION_KEY')
    .option('--encryption-key-id <id>', 'the key id the service encrypts with', 'k1')
    .option('--json', 'machine-readable report')
    .action(async (flags: ReconcileFlags) => {
      let opened: OpenedStore | undefined;
      try {
        if (flags.provider !== 'stripe') throw new StoreTargetError(`--provider ${flags.provider} is not supported by the CLI: call reconcile() from @idempotency-builder/runtime/payments with your provider's lookup.`);
        const olderThanMs = durationFlag('older-than', flags.olderThan, 120_000);
        const limit = countFlag('limit', flags.limit, 100);
        const lookup = stripeLookup(stripeClient(flags));
        const codec = codecFrom(flags);
        opened = await openStore(resolveStoreTarget(flags));
        const idempotency = createIdempotency({ store: opened.store, ...(codec ? { codec } : {}) });
        const report = await reconcile({ idempotency, provider: 'stripe', lookup, olderThanMs, limit });
        if (flags.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
        else print(report);
        process.exitCode = report.splitBrain > 0 ? 3 : 0;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        process.stderr.write(`${pc.red(error instanceof StoreTargetError ? message : `Reconciliation failed: ${message}`)}\n`);
        process.exitCode = 2;
      } finally {
        await opened?.close().catch(() => undefined);
      }
    });
}
