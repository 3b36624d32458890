from django.urls import include, path
from rest_framework.routers import DefaultRouter

from . import views

router = DefaultRouter()
router.register(r"members", views.MemberViewSet, basename="member")

urlpatterns = [
    path("", include(router.urls)),
    path("profile/", views.ProfileView.as_view()),
]
