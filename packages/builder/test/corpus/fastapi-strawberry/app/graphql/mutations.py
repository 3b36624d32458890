import strawberry
from aiosmtplib import send
from email.message import EmailMessage
from sqlalchemy import text
from strawberry.types import Info

from app.graphql.types import Order, PlaceOrderInput


@strawberry.type
class Mutation:
    @strawberry.mutation
    async def place_order(self, info: Info, input: PlaceOrderInput) -> Order:
        session = info.context["session"]
        row = await session.execute(
            text("INSERT INTO orders (table_id, items, allergy_notes) VALUES (:t, :i, :n) RETURNING id, status"),
            {"t": input.table_id, "i": [item.dish_id for item in input.items], "n": input.allergy_notes},
        )
        await session.commit()
        created = row.one()
        return Order(id=created.id, status=created.status)

    @strawberry.mutation(name="cancelOrder", description="Cancel an order that is not cooked yet")
    async def cancel(self, info: Info, order_id: strawberry.ID, reason: str) -> bool:
        session = info.context["session"]
        await session.execute(text("UPDATE orders SET status = 'cancelled', reason = :r WHERE id = :id"), {"r": reason, "id": order_id})
        await session.commit()
        return True

    @strawberry.mutation
    async def send_receipt(self, info: Info, order_id: strawberry.ID, email: str) -> bool:
        message = EmailMessage()
        message["To"] = email
        message.set_content(f"Receipt for order {order_id}")
        await send(message, hostname="localhost")
        return True
