from django import forms

from .models import Appointment


class AppointmentForm(forms.ModelForm):
    accept_policy = forms.BooleanField()

    class Meta:
        model = Appointment
        fields = "__all__"
        exclude = ("status",)
