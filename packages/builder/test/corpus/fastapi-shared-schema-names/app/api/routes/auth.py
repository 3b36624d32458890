from fastapi import APIRouter

from app.db import SessionDep
from app.models import User
from app.schemas.auth import LoginIn, UserCreate
from app.security import create_access_token, hash_password

router = APIRouter(prefix="/auth", tags=["auth"])


@router.post("/signup")
def signup(user_in: UserCreate, session: SessionDep):
    user = User(email=user_in.email, hashed_password=hash_password(user_in.password))
    session.add(user)
    session.commit()
    return user


@router.post("/login")
def login(credentials: LoginIn, session: SessionDep):
    return {"access_token": create_access_token(credentials.email)}
