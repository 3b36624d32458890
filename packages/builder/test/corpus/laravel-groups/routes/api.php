<?php

use App\Http\Controllers\CheckoutController;
use App\Http\Controllers\ShipmentController;
use App\Http\Controllers\StripeWebhookController;
use App\Http\Controllers\WarehouseController;
use Illuminate\Support\Facades\Route;

// Stripe calls this without a user session.
Route::post('stripe/webhook', StripeWebhookController::class);

Route::middleware('auth:sanctum')->group(function () {
    Route::get('me', fn () => request()->user());

    Route::prefix('shop')->name('shop.')->group(function () {
        Route::post('checkout', [CheckoutController::class, 'store'])->name('checkout');

        Route::controller(ShipmentController::class)->prefix('shipments')->group(function () {
            Route::get('', 'index');
            Route::post('', 'store');
            Route::match(['put', 'patch'], '{shipment}/address', 'updateAddress');
        });
    });

    Route::group(['prefix' => 'inventory', 'middleware' => ['can:manage-stock']], function () {
        Route::apiResource('warehouses', WarehouseController::class)->only(['index', 'store', 'destroy']);
    });

    // Route::post('legacy/checkout', [CheckoutController::class, 'legacy']);
});
