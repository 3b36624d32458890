from sqlmodel import SQLModel


class OrderBase(SQLModel):
    sku: str
    quantity: int


class OrderCreate(OrderBase):
    shipping_address: str


class Credentials(SQLModel):
    username: str
    password: str
