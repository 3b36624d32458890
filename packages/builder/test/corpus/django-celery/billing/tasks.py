"""Periodic and on-demand billing work, run by Celery workers."""
import stripe
from celery import shared_task
from django.core.mail import send_mail
from django.utils import timezone

from .models import Charge, Subscription


@shared_task(bind=True, autoretry_for=(stripe.error.APIConnectionError,), max_retries=5)
def charge_due_subscriptions(self):
    for subscription in Subscription.objects.filter(next_charge_at__lte=timezone.now()):
        charge_subscription.delay(subscription.id, subscription.next_charge_at.date().isoformat())


@shared_task(acks_late=False)
def charge_subscription(subscription_id, period):
    key = f"sub-{subscription_id}-{period}"
    if Charge.objects.filter(idempotency_key=key).exists():
        return
    subscription = Subscription.objects.get(pk=subscription_id)
    intent = stripe.PaymentIntent.create(amount=subscription.price_cents, currency="eur", customer=subscription.customer_id)
    Charge.objects.create(subscription=subscription, idempotency_key=key, stripe_payment_intent=intent.id, amount_cents=subscription.price_cents)


@shared_task
def expire_stale_invoices():
    Subscription.objects.filter(next_charge_at__lt=timezone.now()).update(price_cents=0)


@shared_task(queue="mail")
def send_dunning_emails():
    send_mail("Your payment failed", "Please update your card.", "billing@example.com", ["ops@example.com"])
