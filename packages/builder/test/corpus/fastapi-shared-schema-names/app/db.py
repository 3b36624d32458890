from typing import Annotated

from fastapi import Depends
from sqlalchemy.orm import Session


def get_session():
    ...


SessionDep = Annotated[Session, Depends(get_session)]
