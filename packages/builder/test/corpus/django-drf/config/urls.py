# Corpus fixture: project urls including an app's urls under a prefix.
from django.urls import include, path

urlpatterns = [
    path("billing/", include("billing.urls")),
]
