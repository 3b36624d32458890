from django.db import models


class Order(models.Model):
    product_id = models.CharField(max_length=64)
    quantity = models.PositiveIntegerField(default=1)
    status = models.CharField(max_length=20, default="new")
    payment_intent = models.CharField(max_length=64, blank=True)


class Address(models.Model):
    user_id = models.IntegerField()
    street = models.CharField(max_length=200)
    city = models.CharField(max_length=100)
    postcode = models.CharField(max_length=20)
