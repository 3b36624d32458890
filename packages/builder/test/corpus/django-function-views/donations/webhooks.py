import stripe
from django.conf import settings
from django.http import HttpResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from .models import Pledge


@require_POST
@csrf_exempt
def stripe_events(request):
    try:
        event = stripe.Webhook.construct_event(
            request.body, request.META["HTTP_STRIPE_SIGNATURE"], settings.STRIPE_WEBHOOK_SECRET
        )
    except (ValueError, stripe.error.SignatureVerificationError):
        return HttpResponse(status=400)
# payment_intent.succeeded marks the pledge paid
    if event["type"] == "payment_intent.succeeded":
        Pledge.objects.filter(intent_id=event["data"]["object"]["id"]).update(paid=True)
    return HttpResponse(status=200)
