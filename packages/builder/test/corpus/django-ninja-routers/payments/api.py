from ninja import Router, Schema

from payments.models import Refund

router = Router(tags=["payments"])


class RefundIn(Schema):
    order_id: int
    amount_cents: int


@router.post("/refunds")
def request_refund(request, payload: RefundIn):
    refund = Refund.objects.create(requested_by=request.user, **payload.dict())
    return {"id": refund.id}
