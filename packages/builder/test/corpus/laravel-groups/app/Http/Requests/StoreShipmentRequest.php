<?php

namespace App\Http\Requests;

use Illuminate\Foundation\Http\FormRequest;

class StoreShipmentRequest extends FormRequest
{
    public function authorize(): bool
    {
        return $this->user() !== null;
    }

    public function rules(): array
    {
        return [
            'order_id' => ['required', 'exists:orders,id'],
            'address.line1' => ['required', 'string'],
            'address.city' => ['required', 'string'],
            'items' => ['required', 'array'],
            'items.*.sku' => ['required', 'string'],
        ];
    }
}
