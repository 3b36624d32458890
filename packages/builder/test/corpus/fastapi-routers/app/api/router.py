from fastapi import APIRouter

from app.api.routes import auth, orders

api_router = APIRouter()
api_router.include_router(orders.router, prefix="/orders")
api_router.include_router(auth.router)
