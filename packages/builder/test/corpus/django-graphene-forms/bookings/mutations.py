from graphene_django.forms.mutation import DjangoModelFormMutation
from graphene_django.rest_framework.mutation import SerializerMutation

from .forms import AppointmentForm
from .models import Appointment
from .serializers import CancellationSerializer, RescheduleSerializer


class BookAppointment(DjangoModelFormMutation):
    class Meta:
        form_class = AppointmentForm


class CancelAppointment(SerializerMutation):
    class Meta:
        serializer_class = CancellationSerializer
        model_operations = ["create"]


class RescheduleAppointment(SerializerMutation):
    class Meta:
        serializer_class = RescheduleSerializer

    @classmethod
    def perform_mutate(cls, serializer, info):
        data = serializer.validated_data
        Appointment.objects.filter(pk=data["appointment_id"]).update(starts_at=data["starts_at"])
        return cls(errors=None, **data)


class DraftAppointment(DjangoModelFormMutation):
    """Still on the old admin schema; no Mutation type exposes it."""

    class Meta:
        form_class = AppointmentForm
