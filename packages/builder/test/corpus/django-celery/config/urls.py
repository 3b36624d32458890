from django.urls import include, path

urlpatterns = [
    path("webhooks/", include("webhooks.urls")),
]
