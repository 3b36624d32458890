from ninja import Schema


class MetadataMixin(Schema):
    metadata: dict[str, str] = {}


class OrderIn(Schema):
    sku: str
    quantity: int
    note: str | None = None


class OrderPatch(
    MetadataMixin,
    Schema,
):
    quantity: int | None = None


class AddressIn(Schema):
    street: str
    city: str


class OrderFilters(Schema):
    status: str | None = None
