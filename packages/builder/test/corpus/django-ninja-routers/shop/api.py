from ninja import NinjaAPI
from ninja.security import django_auth

from orders.api import router as orders_router

api = NinjaAPI(auth=django_auth, title="Shop")

api.add_router("/orders", orders_router)
# Ninja imports a router given as a dotted path itself.
api.add_router("/payments/", "payments.api.router")


@api.get("/health", auth=None)
def health(request):
    return {"ok": True}
