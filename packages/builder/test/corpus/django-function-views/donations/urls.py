from django.urls import path

from . import views
from .webhooks import stripe_events

urlpatterns = [
    path("", views.donation_form, name="donation_form"),
    path("charge/", views.charge, name="charge"),
    path("pledges/<int:pledge_id>/cancel/", views.cancel_pledge, name="cancel_pledge"),
    path("pledges/<int:pledge_id>/", views.pledge_detail, name="pledge_detail"),
    path("receipts/<int:pledge_id>/resend/", views.resend_receipt, name="resend_receipt"),
    path("thanks/", views.thanks, name="thanks"),
    path("stripe/events/", stripe_events, name="stripe_events"),
]
