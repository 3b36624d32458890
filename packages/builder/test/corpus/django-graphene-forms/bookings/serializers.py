from rest_framework import serializers

from .models import Cancellation


class CancellationSerializer(serializers.ModelSerializer):
    class Meta:
        model = Cancellation
        fields = ["id", "appointment", "reason", "cancelled_at"]


class RescheduleSerializer(serializers.Serializer):
    appointment_id = serializers.IntegerField()
    starts_at = serializers.DateTimeField()
    moved_by = serializers.CharField(read_only=True)
    summary = serializers.SerializerMethodField()

    def get_summary(self, obj):
        return f"moved to {obj['starts_at']}"
