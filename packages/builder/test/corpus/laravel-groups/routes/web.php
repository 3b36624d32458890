<?php

use App\Mail\NewsletterWelcome;
use Illuminate\Http\Request;
use Illuminate\Support\Facades\Mail;
use Illuminate\Support\Facades\Route;

Route::view('/', 'welcome');

Route::post('newsletter', function (Request $request) {
    $email = $request->input('email');
    Mail::to($email)->send(new NewsletterWelcome());

    return back()->with('status', 'subscribed');
});
