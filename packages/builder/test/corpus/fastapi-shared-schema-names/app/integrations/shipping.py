# The carrier's label API: its own address payload, not what the storefront accepts.
from pydantic import BaseModel


class AddressIn(BaseModel):
    street: str
    zip: str
    country_code: str
