import stripe
from fastapi import APIRouter, Query

from app.models import OrderCreate

router = APIRouter()


@router.post("/")
def place_order(
    *, session: SessionDep, order_in: OrderCreate, coupon: str | None = Query(default=None)
):
    order = session.add(order_in)
    stripe.PaymentIntent.create(amount=1000, currency="eur", idempotency_key=f"{order_in.sku}-{order_in.quantity}")
    return order


@router.delete("/{order_id}")
def cancel_order(order_id: int, session: SessionDep):
    session.delete(order_id)
    session.commit()
