from fastapi import APIRouter
from pydantic import BaseModel

router = APIRouter()


class MenuImport(BaseModel):
    source_url: str
    replace: bool = False


@router.post("/menu/import")
async def import_menu(body: MenuImport):
    return {"queued": True}
