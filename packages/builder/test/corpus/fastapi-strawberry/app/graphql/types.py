import strawberry


@strawberry.type
class Order:
    id: strawberry.ID
    status: str


@strawberry.input
class LineItemInput:
    dish_id: strawberry.ID
    quantity: int = 1


@strawberry.input
class PlaceOrderInput:
    table_id: strawberry.ID
    items: list[LineItemInput]
    allergy_notes: str | None = None
