from pydantic import BaseModel


class AddressIn(BaseModel):
    line1: str
    line2: str | None = None
    city: str
    postcode: str
