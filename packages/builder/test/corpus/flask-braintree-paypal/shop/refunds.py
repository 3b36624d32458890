import Adyen

adyen = Adyen.Adyen()
adyen.client.xapikey = "set-from-env"


def refund_payment(psp_reference, amount, order_id):
    body = {"amount": amount, "merchantAccount": "ShopECOM", "reference": order_id}
    return adyen.checkout.modifications_api.refund_captured_payment(
        body, psp_reference, idempotency_key=f"refund-{order_id}-{amount['value']}"
    )


def cancel_payment(psp_reference):
    return adyen.checkout.modifications_api.cancel_authorised_payment_by_psp_reference({"merchantAccount": "ShopECOM"}, psp_reference)
