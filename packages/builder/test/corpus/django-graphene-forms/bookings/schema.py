import graphene
from graphene_django import DjangoObjectType

from billing.mutations import InvoiceAppointment
from .models import Appointment
from .mutations import BookAppointment, CancelAppointment, RescheduleAppointment


class AppointmentType(DjangoObjectType):
    class Meta:
        model = Appointment
        fields = ("id", "starts_at", "status")


class BookingQueries(graphene.ObjectType):
    appointment = graphene.Field(AppointmentType, appointment_id=graphene.ID(required=True))

    def resolve_appointment(root, info, appointment_id):
        return Appointment.objects.get(pk=appointment_id)


class BookingMutations(graphene.ObjectType):
    book_appointment = BookAppointment.Field()
    cancel_appointment = CancelAppointment.Field()
    reschedule_appointment = RescheduleAppointment.Field()
    invoice_appointment = InvoiceAppointment.Field()
    confirm_appointment = graphene.Field(
        AppointmentType,
        appointment_id=graphene.ID(required=True),
        confirmed_by=graphene.String(),
    )

    def resolve_confirm_appointment(root, info, appointment_id, confirmed_by=None):
        appointment = Appointment.objects.get(pk=appointment_id)
        appointment.status = "confirmed"
        appointment.save(update_fields=["status"])
        return appointment
