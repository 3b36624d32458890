import os
import uuid

import braintree
import requests
from flask import Flask, jsonify, request

from shop.paypal import PAYPAL_API, access_token

app = Flask(__name__)
gateway = braintree.BraintreeGateway(
    braintree.Configuration(
        environment=braintree.Environment.Sandbox,
        merchant_id=os.environ["BT_MERCHANT_ID"],
        public_key=os.environ["BT_PUBLIC_KEY"],
        private_key=os.environ["BT_PRIVATE_KEY"],
    )
)


@app.route("/checkouts", methods=["POST"])
def create_checkout():
    result = gateway.transaction.sale({
        "amount": request.form["amount"],
        "payment_method_nonce": request.form["payment_method_nonce"],
        "options": {"submit_for_settlement": True},
    })
    return jsonify({"id": result.transaction.id if result.is_success else None}), 201


@app.route("/checkouts/<transaction_id>/refund", methods=["POST"])
def refund_checkout(transaction_id):
    result = gateway.transaction.refund(transaction_id, request.form["amount"])
    return jsonify({"id": result.transaction.id if result.is_success else None})


@app.route("/orders", methods=["POST"])
def create_order():
    key = request.headers["Idempotency-Key"]
    response = requests.post(
        f"{PAYPAL_API}/v2/checkout/orders",
        json={"intent": "CAPTURE", "purchase_units": [{"amount": {"currency_code": "USD", "value": request.json["total"]}}]},
        headers={"Authorization": f"Bearer {access_token()}", "PayPal-Request-Id": key},
    )
    return jsonify(response.json()), response.status_code


@app.route("/orders/<order_id>/capture", methods=["POST"])
def capture_order(order_id):
    headers = {
        "Authorization": f"Bearer {access_token()}",
        "Content-Type": "application/json",
        "PayPal-Request-Id": str(uuid.uuid4()),
    }
    response = requests.post(f"{PAYPAL_API}/v2/checkout/orders/{order_id}/capture", headers=headers)
    return jsonify(response.json()), response.status_code
