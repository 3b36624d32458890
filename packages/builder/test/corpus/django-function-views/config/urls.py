# Corpus fixture: a Django project whose apps serve template views and a small DRF API.
from django.urls import include, path

urlpatterns = [
    path("donate/", include("donations.urls")),
    path("api/", include("memberships.urls")),
]
