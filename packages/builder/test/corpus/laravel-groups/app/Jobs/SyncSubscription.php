<?php

namespace App\Jobs;

use App\Models\Subscription;
use Illuminate\Contracts\Queue\ShouldQueue;
use Illuminate\Foundation\Queue\Queueable;
use Stripe\PaymentIntent;

class SyncSubscription implements ShouldQueue
{
    use Queueable;

    public $tries = 4;

    public $backoff = 30;

    public function __construct(public string $subscriptionId)
    {
        $this->onQueue('billing');
    }

    public function handle(): void
    {
        $subscription = Subscription::where('stripe_id', $this->subscriptionId)->firstOrFail();

        if ($subscription->has_overdue_balance) {
            PaymentIntent::create([
                'amount' => $subscription->overdue_cents,
                'currency' => 'eur',
                'customer' => $subscription->stripe_customer,
            ]);
        }
    }
}
