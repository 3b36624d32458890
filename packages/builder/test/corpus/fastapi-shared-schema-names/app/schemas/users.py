from pydantic import BaseModel, EmailStr


class UserCreate(BaseModel):
    email: EmailStr
    full_name: str
    role: str = "customer"


class UserUpdate(UserCreate):
    is_active: bool = True
