import strawberry

from app.graphql.mutations import Mutation
from app.graphql.types import Order


@strawberry.type
class Query:
    @strawberry.field
    async def orders(self, info: strawberry.Info) -> list[Order]:
        return []


schema = strawberry.Schema(query=Query, mutation=Mutation)
