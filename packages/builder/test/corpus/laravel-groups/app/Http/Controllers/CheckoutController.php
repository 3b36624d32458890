<?php

namespace App\Http\Controllers;

use App\Models\Cart;
use Illuminate\Http\Request;
use Stripe\StripeClient;

class CheckoutController extends Controller
{
    public function __construct(private StripeClient $stripe)
    {
    }

    public function store(Request $request)
    {
        $validated = $request->validate([
            'cart_id' => ['required', 'integer'],
            'payment_method' => ['required', 'string'],
        ]);

        $cart = Cart::findOrFail($validated['cart_id']);

        $intent = $this->stripe->paymentIntents->create(
            ['amount' => $cart->total_cents, 'currency' => 'eur', 'payment_method' => $validated['payment_method'], 'confirm' => true],
            ['idempotency_key' => 'checkout-'.$cart->id]
        );

        return response()->json(['status' => $intent->status], 201);
    }
}
