from rest_framework import serializers


class MemberSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    full_name = serializers.CharField(max_length=120)
    tier = serializers.ChoiceField(choices=["bronze", "silver", "gold"])
