// Laravel's effects beside its routes: stripe-php calls in every form (imported resource, static,
// StripeClient services, Cashier), queued jobs as consumers, console schedules (Kernel and the
// Laravel 11 facade) — and commented-out code, which is none of them.
import { describe, expect, it } from 'vitest';
import { scanPhp } from '../src/inspect/patterns/php.js';

const php = (...lines: string[]): string => ['<?php', ...lines].join('\n');

describe('PHP provider calls', () => {
  it('finds stripe-php resources imported by use, static calls, StripeClient services and Cashier; a commented call is none', () => {
    const text = php(
      'use Stripe\\PaymentIntent;',
      'use Stripe\\Checkout\\Session;',
      'class Pay {',
      '  function a($order) {',
      "    PaymentIntent::create(['amount' => 100], ['idempotency_key' => 'order-' . $order->id]);",
      "    Session::create(['mode' => 'payment']);",
      "    \\Stripe\\Checkout\\Session::create(['mode' => 'payment']);",
      "    $this->stripe->checkout->sessions->create(['mode' => 'payment']);",
      "    $this->stripe->paymentIntents->create(['amount' => 1], ['idempotency_key' => $key]);",
      "    // \\Stripe\\Charge::create(['amount' => 100]);",
      '  }',
      '}',
    );
    expect(scanPhp('app/Pay.php', text).findings.paymentCalls.map((c) => [c.call, c.location, c.passesIdempotencyKey])).toEqual([
      ['\\Stripe\\Checkout\\Session::create', 'app/Pay.php:8', false],
      ['->checkout->sessions->create', 'app/Pay.php:9', false],
      ['->paymentIntents->create', 'app/Pay.php:10', true],
      ['PaymentIntent::create', 'app/Pay.php:6', true],
      ['Session::create', 'app/Pay.php:7', false],
    ]);
  });

  it('finds Laravel Cashier charges, which can carry no idempotency key', () => {
    const text = php(
      'use Laravel\\Cashier\\Cashier;',
      'class Billing {',
      "  function a($user, $pm) { return $user->charge(1000, $pm, ['idempotency_key' => 'x']); }",
      "  function b($user) { return $user->newSubscription('default', 'price_1')->create($pm); }",
      '}',
    );
    expect(scanPhp('app/Billing.php', text).findings.paymentCalls.map((c) => [c.location, c.passesIdempotencyKey])).toEqual([
      ['app/Billing.php:4', false],
      ['app/Billing.php:5', false],
    ]);
  });
});

describe('Laravel jobs and schedules', () => {
  it('reports ShouldQueue classes as consumers with their retries, and skips an abstract base', () => {
    const text = php(
      'namespace App\\Jobs;',
      'class ChargeOrder implements ShouldQueue',
      '{',
      '    use Dispatchable, Queueable;',
      '    public $tries = 5;',
      '    public $backoff = [10, 60];',
      "    public function __construct() { $this->onQueue('billing'); }",
      '    public function handle(): void {}',
      '}',
      'abstract class BaseJob implements ShouldQueue {}',
    );
    const [job, ...rest] = scanPhp('app/Jobs/ChargeOrder.php', text).findings.consumers;
    expect(rest).toEqual([]);
    expect(job).toMatchObject({ broker: 'other', handler: 'ChargeOrder', channel: 'billing', location: 'app/Jobs/ChargeOrder.php:3' });
    expect(job?.evidence).toContain('handle() at app/Jobs/ChargeOrder.php:9');
    expect(job?.redelivery).toContain('up to 5 times (`$tries = 5`, app/Jobs/ChargeOrder.php:6)');
    expect(job?.redelivery).toContain('`$backoff = [10, 60]`');
    expect(job?.redelivery).toContain('retry_after');
  });

  it('reads Laravel 11 Schedule:: facades and Kernel $schedule calls, never commented-out ones', () => {
    const console = php(
      'use Illuminate\\Support\\Facades\\Schedule;',
      "Schedule::command('invoices:check')->withoutOverlapping()->daily();",
      'Schedule::job(new \\App\\Jobs\\SendReceipts)->hourly();',
      "Schedule::job(CleanLogs::class, 'daily');",
      "// Schedule::command('old')->daily();",
    );
    expect(scanPhp('routes/console.php', console).findings.schedulers.map((s) => [s.location, s.schedule, s.handler])).toEqual([
      ['routes/console.php:3', 'daily()', 'invoices:check'],
      ['routes/console.php:4', 'hourly()', 'SendReceipts'],
      ['routes/console.php:5', 'daily', 'CleanLogs'],
    ]);
    const kernel = php(
      'class Kernel extends ConsoleKernel {',
      '    protected function schedule(Schedule $schedule) {',
      "        // $schedule->command('inspire')",
      '        //          ->hourly();',
      "        $schedule->command('reports:send')->cron('0 6 * * *');",
      '    }',
      '}',
    );
    expect(scanPhp('app/Console/Kernel.php', kernel).findings.schedulers.map((s) => [s.location, s.schedule, s.handler])).toEqual([
      ['app/Console/Kernel.php:6', "cron('0 6 * * *')", 'reports:send'],
    ]);
  });
});
