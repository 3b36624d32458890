from django.db import models


class Member(models.Model):
    full_name = models.CharField(max_length=120)
    tier = models.CharField(max_length=16)
