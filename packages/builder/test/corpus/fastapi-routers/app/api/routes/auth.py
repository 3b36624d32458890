from fastapi import APIRouter

from app.models import Credentials

router = APIRouter(prefix="/auth")


@router.post("/login")
def login(credentials: Credentials):
    return {"token": credentials.username}
