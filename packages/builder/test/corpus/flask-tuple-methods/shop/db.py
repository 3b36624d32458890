class Table:
    def insert(self, **values):
        raise NotImplementedError

    def update(self, key, **values):
        raise NotImplementedError

    def delete(self, key):
        raise NotImplementedError


class Database:
    carts = Table()
    orders = Table()
    refunds = Table()


db = Database()
