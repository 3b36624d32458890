import uuid

from django.conf import settings
from django.db import models


class Clinician(models.Model):
    name = models.CharField(max_length=120)


class Appointment(models.Model):
    patient = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    clinician = models.ForeignKey(Clinician, on_delete=models.PROTECT)
    starts_at = models.DateTimeField()
    notes = models.TextField(blank=True)
    status = models.CharField(max_length=20, default="booked")
    reference = models.UUIDField(default=uuid.uuid4, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)


class Cancellation(models.Model):
    appointment = models.OneToOneField(Appointment, on_delete=models.CASCADE)
    reason = models.CharField(max_length=200)
    cancelled_at = models.DateTimeField(auto_now_add=True)
