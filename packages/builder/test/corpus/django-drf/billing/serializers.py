from rest_framework import serializers


class InvoiceSerializer(serializers.Serializer):
    customer_id = serializers.IntegerField()
    total_cents = serializers.IntegerField()
