from django.shortcuts import get_object_or_404
from ninja import Form, Query, Router

from orders.models import Order
from orders.schemas import AddressIn, OrderFilters, OrderIn, OrderPatch

router = Router(tags=["orders"])


@router.get("/")
def list_orders(request, filters: Query[OrderFilters]):
    return Order.objects.filter(owner=request.user)


@router.post("/")
def create_order(request, payload: OrderIn):
    order = Order.objects.create(owner=request.user, **payload.dict())
    return {"id": order.id}


@router.patch("/{int:order_id}")
def update_order(request, order_id: int, payload: OrderPatch):
    order = get_object_or_404(Order, id=order_id, owner=request.user)
    for key, value in payload.dict(exclude_unset=True).items():
        setattr(order, key, value)
    order.save()
    return {"id": order.id}


@router.delete("/{int:order_id}")
def cancel_order(request, order_id: int):
    get_object_or_404(Order, id=order_id, owner=request.user).delete()
    return 204


@router.api_operation(["PUT"], "/{int:order_id}/address")
def set_address(request, order_id: int, address: Form[AddressIn]):
    Order.objects.filter(id=order_id, owner=request.user).update(street=address.street, city=address.city)
    return {"id": order_id}
