from pydantic import BaseModel, EmailStr


class UserCreate(BaseModel):
    email: EmailStr
    password: str
    accept_terms: bool


class LoginIn(BaseModel):
    email: EmailStr
    password: str
