from rest_framework import generics, mixins, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from .models import Member
from .serializers import MemberSerializer


class MemberViewSet(mixins.CreateModelMixin,
                    mixins.ListModelMixin,
                    mixins.DestroyModelMixin,
                    viewsets.GenericViewSet):
    queryset = Member.objects.all()
    serializer_class = MemberSerializer

    def perform_create(self, serializer):
        serializer.save(owner=self.request.user)

    def perform_destroy(self, instance):
        instance.delete()

    @action(detail=True, methods=("post",), url_path="renew")
    def renew(self, request, pk=None):
        member = self.get_object()
        member.renewals.create(months=request.data["months"])
        return Response(status=201)


class ProfileView(generics.RetrieveUpdateAPIView):
    serializer_class = MemberSerializer

    def get_object(self):
        return self.request.user.member

    def perform_update(self, serializer):
        serializer.save()
