import stripe
from django.conf import settings
from rest_framework.decorators import api_view
from rest_framework.response import Response

from billing.tasks import charge_subscription
from .models import StripeEvent


@api_view(["POST"])
def stripe_webhook(request):
    event = stripe.Webhook.construct_event(request.body, request.headers["Stripe-Signature"], settings.STRIPE_WEBHOOK_SECRET)
    if StripeEvent.objects.filter(event_id=event["id"]).exists():
        return Response(status=200)
    if event["type"] == "invoice.payment_failed":
        charge_subscription.delay(event["data"]["object"]["subscription"], event["data"]["object"]["period_end"])
    StripeEvent.objects.create(event_id=event["id"], type=event["type"])
    return Response(status=200)
