<?php

namespace App\Http\Controllers;

use App\Jobs\SyncSubscription;
use Illuminate\Http\Request;
use Stripe\Webhook;

class StripeWebhookController extends Controller
{
    public function __invoke(Request $request)
    {
        $event = Webhook::constructEvent(
            $request->getContent(),
            $request->header('Stripe-Signature'),
            config('services.stripe.webhook_secret')
        );

        if ($event->type === 'customer.subscription.updated') {
            SyncSubscription::dispatch($event->data->object->id);
        }

        return response()->noContent();
    }
}
