from django.urls import include, path
from rest_framework.routers import DefaultRouter

from billing import views

router = DefaultRouter()
router.register(r"invoices", views.InvoiceViewSet)

urlpatterns = [
    path("", include(router.urls)),
    path("credit-notes/", views.issue_credit_note),
]
