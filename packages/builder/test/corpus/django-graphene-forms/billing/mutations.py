from django.core.mail import send_mail
from graphene_django.forms.mutation import DjangoFormMutation

from .forms import AppointmentForm


class InvoiceAppointment(DjangoFormMutation):
    class Meta:
        form_class = AppointmentForm

    @classmethod
    def perform_mutate(cls, form, info):
        data = form.cleaned_data
        send_mail("Your invoice", f"Amount due: {data['amount_cents'] / 100:.2f}", None, [data["invoice_email"]])
        return cls(errors=[], **data)
