from django.db import models


class Pledge(models.Model):
    donor_email = models.EmailField()
    amount_cents = models.PositiveIntegerField()
    intent_id = models.CharField(max_length=64, blank=True)
    paid = models.BooleanField(default=False)
