from fastapi import FastAPI
from strawberry.fastapi import GraphQLRouter

from app.api import router as rest_router
from app.db import get_context
from app.graphql.schema import schema

app = FastAPI(title="Kitchen orders")

graphql_app = GraphQLRouter(schema, context_getter=get_context)

app.include_router(rest_router, prefix="/api")
app.include_router(graphql_app, prefix="/api/graphql")
