# Admin-side user management: the admin's UserCreate, not the sign-up form's.
from fastapi import APIRouter

from app import schemas
from app.db import SessionDep
from app.models import User

router = APIRouter(tags=["users"])


@router.post("/")
def create_user(user_in: schemas.users.UserCreate, session: SessionDep):
    user = User(**user_in.model_dump())
    session.add(user)
    session.commit()
    return user


@router.patch("/{user_id}")
def update_user(user_id: int, user_in: schemas.users.UserUpdate, session: SessionDep):
    user = session.get(User, user_id)
    for key, value in user_in.model_dump(exclude_unset=True).items():
        setattr(user, key, value)
    session.commit()
    return user
