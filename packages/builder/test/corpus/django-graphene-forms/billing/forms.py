from django import forms


class AppointmentForm(forms.Form):
    """Same name as the bookings form, other fields: the mutation below imports this one."""

    appointment_id = forms.IntegerField()
    invoice_email = forms.EmailField()
    amount_cents = forms.IntegerField(min_value=0)
