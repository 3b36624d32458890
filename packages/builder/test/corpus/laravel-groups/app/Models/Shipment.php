<?php

namespace App\Models;

use Illuminate\Database\Eloquent\Model;

class Shipment extends Model
{
    protected $fillable = ['order_id', 'address', 'items'];

    protected $casts = ['address' => 'array', 'items' => 'array'];
}
