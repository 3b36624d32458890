import os

import requests

PAYPAL_API = os.environ.get("PAYPAL_API", "https://api-m.sandbox.paypal.com")


def access_token():
    response = requests.post(
        f"{PAYPAL_API}/v1/oauth2/token",
        data={"grant_type": "client_credentials"},
        auth=(os.environ["PAYPAL_CLIENT_ID"], os.environ["PAYPAL_CLIENT_SECRET"]),
    )
    return response.json()["access_token"]
