<?php

namespace App\Http\Controllers;

use App\Http\Requests\StoreShipmentRequest;
use App\Models\Shipment;
use Illuminate\Http\Request;

class ShipmentController extends Controller
{
    public function index()
    {
        return Shipment::latest()->paginate();
    }

    public function store(StoreShipmentRequest $request)
    {
        $shipment = Shipment::create($request->validated());

        return response()->json($shipment, 201);
    }

    public function updateAddress(Request $request, Shipment $shipment)
    {
        $shipment->address = $request->only(['line1', 'city']);
        $shipment->save();

        return $shipment;
    }
}
