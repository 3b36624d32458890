import graphene

from . import mutations
from .models import Order
from .mutations import OrderType


class Query(graphene.ObjectType):
    orders = graphene.List(OrderType)

    def resolve_orders(root, info):
        return Order.objects.all()


class Mutation(graphene.ObjectType):
    create_order = mutations.CreateOrder.Field()
    pay_order = mutations.PayOrder.Field()
    update_shipping_address = mutations.UpdateAddress.Field()
    token_auth = mutations.Login.Field()


schema = graphene.Schema(query=Query, mutation=Mutation)
