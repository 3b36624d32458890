from flask import Blueprint, request
from flask.views import MethodView

from shop.db import db

blueprint = Blueprint("refunds", __name__)


class RefundAPI(MethodView):
    def get(self):
        return db.refunds.all()

    def post(self):
        data = request.get_json()
        refund = db.refunds.insert(order_id=data["order_id"], reason=data.get("reason"))
        return {"id": refund.id}, 201


blueprint.add_url_rule("/api/refunds", view_func=RefundAPI.as_view("refunds"))
