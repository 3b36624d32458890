from django.db import models


class StripeEvent(models.Model):
    event_id = models.CharField(max_length=255)
    type = models.CharField(max_length=128)
    received_at = models.DateTimeField(auto_now_add=True)
