from django.db import models


class Subscription(models.Model):
    customer_id = models.CharField(max_length=64)
    price_cents = models.IntegerField()
    next_charge_at = models.DateTimeField()


class Charge(models.Model):
    subscription = models.ForeignKey(Subscription, on_delete=models.CASCADE)
    idempotency_key = models.CharField(
        max_length=128,
        unique=True,
    )
    stripe_payment_intent = models.CharField(max_length=64)
    amount_cents = models.IntegerField()
