from flask import Blueprint, request

from shop.db import db

blueprint = Blueprint("carts", __name__)


@blueprint.route("/api/carts", methods=("POST",))
def open_cart():
    payload = request.get_json()
    cart = db.carts.insert(owner=payload["owner"])
    return {"id": cart.id}, 201


@blueprint.route("/api/carts/<int:cart_id>", methods=("GET",))
def show_cart(cart_id):
    return db.carts.get(cart_id)


@blueprint.route("/api/carts/<int:cart_id>/items", methods={"PUT", "PATCH"})
def set_items(cart_id):
    data = request.get_json()
    db.carts.update(cart_id, items=data["items"])
    return {}, 204


@blueprint.route("/api/carts/<int:cart_id>", methods=["DELETE"])
def drop_cart(cart_id):
    db.carts.delete(cart_id)
    return {}, 204


def checkout(cart_id):
    body = request.get_json()
    db.orders.insert(cart_id=cart_id, address=body["address"])
    return {}, 201


blueprint.add_url_rule("/api/carts/<int:cart_id>/checkout", view_func=checkout, methods=("POST",))
