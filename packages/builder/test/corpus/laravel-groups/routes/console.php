<?php

use App\Jobs\SyncSubscription;
use Illuminate\Support\Facades\Schedule;

Schedule::command('shipments:reconcile')
    ->withoutOverlapping()
    ->dailyAt('02:30');

Schedule::job(new SyncSubscription('*'))->everyFifteenMinutes();

// Schedule::command('inspire')->hourly();
