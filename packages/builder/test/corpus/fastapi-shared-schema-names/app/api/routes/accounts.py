from fastapi import APIRouter

from ...db import SessionDep
from ...models import Address
from ...schemas import AddressIn

router = APIRouter(tags=["accounts"])


@router.post("/me/addresses")
def add_address(address_in: AddressIn, session: SessionDep):
    address = Address(**address_in.model_dump())
    session.add(address)
    session.commit()
    return address
