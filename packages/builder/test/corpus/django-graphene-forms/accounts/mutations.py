from django.contrib.auth import login
from django.contrib.auth.forms import AuthenticationForm
from graphene_django.forms.mutation import DjangoFormMutation

from .forms import ProfileForm, SignUpForm


class SignUp(DjangoFormMutation):
    """The library saves the form (a ModelForm): no override here."""

    class Meta:
        form_class = SignUpForm


class Login(DjangoFormMutation):
    class Meta:
        form_class = AuthenticationForm

    @classmethod
    def get_form_kwargs(cls, root, info, **input):
        return {"request": info.context, "data": input}

    @classmethod
    def perform_mutate(cls, form, info):
        login(info.context, form.get_user())
        return cls(errors=[])


class UpdateProfile(DjangoFormMutation):
    class Meta:
        form_class = ProfileForm

    @classmethod
    def perform_mutate(cls, form, info):
        user = info.context.user
        for name, value in form.cleaned_data.items():
            setattr(user, name, value)
        user.save()
        return cls(errors=[], **form.cleaned_data)
