import graphene
import stripe
from django.contrib.auth import authenticate
from graphene_django import DjangoObjectType
from graphql_jwt.shortcuts import get_token

from .models import Address, Order


class OrderType(DjangoObjectType):
    class Meta:
        model = Order
        fields = ("id", "product_id", "quantity", "status")


class AddressInput(graphene.InputObjectType):
    street = graphene.String(required=True)
    city = graphene.String(required=True)
    postcode = graphene.String()


class CreateOrder(graphene.Mutation):
    class Arguments:
        product_id = graphene.ID(required=True)
        quantity = graphene.Int(default_value=1)

    order = graphene.Field(OrderType)

    @staticmethod
    def mutate(root, info, product_id, quantity=1):
        order = Order.objects.create(product_id=product_id, quantity=quantity)
        return CreateOrder(order=order)


class PayOrder(graphene.relay.ClientIDMutation):
    class Input:
        order_id = graphene.ID(required=True)
        payment_method = graphene.String(required=True)

    status = graphene.String()

    @classmethod
    def mutate_and_get_payload(cls, root, info, **data):
        order = Order.objects.get(pk=data["order_id"])
        intent = stripe.PaymentIntent.create(amount=order.quantity * 1500, currency="eur", payment_method=data["payment_method"], confirm=True)
        Order.objects.filter(pk=order.pk).update(status="paid", payment_intent=intent.id)
        return PayOrder(status=intent.status)


class UpdateAddress(graphene.Mutation):
    class Arguments:
        input = AddressInput(required=True)

    ok = graphene.Boolean()

    def mutate(self, info, input):
        Address.objects.update_or_create(user_id=info.context.user.id, defaults={"street": input.street, "city": input.city, "postcode": input.postcode})
        return UpdateAddress(ok=True)


class Login(graphene.Mutation):
    class Arguments:
        username = graphene.String(required=True)
        password = graphene.String(required=True)

    token = graphene.String()

    def mutate(self, info, username, password):
        user = authenticate(username=username, password=password)
        return Login(token=get_token(user) if user else None)


class ArchiveOrder(graphene.Mutation):
    """Kept for the old admin; not exposed on the schema any more."""

    class Arguments:
        order_id = graphene.ID()

    ok = graphene.Boolean()

    def mutate(self, info, order_id):
        Order.objects.filter(pk=order_id).delete()
        return ArchiveOrder(ok=True)
