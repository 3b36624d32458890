from django import forms
from django.contrib.auth.forms import UserCreationForm

from .models import User


class SignUpForm(UserCreationForm):
    class Meta:
        model = User
        fields = ("email", "display_name")


class ProfileForm(forms.Form):
    display_name = forms.CharField(max_length=80)
    timezone = forms.CharField(max_length=40)
    newsletter = forms.BooleanField(required=False)
