import graphene

from accounts.schema import AccountMutations
from bookings.schema import BookingMutations, BookingQueries


class Query(BookingQueries, graphene.ObjectType):
    pass


class Mutation(AccountMutations, BookingMutations, graphene.ObjectType):
    pass


schema = graphene.Schema(query=Query, mutation=Mutation)
