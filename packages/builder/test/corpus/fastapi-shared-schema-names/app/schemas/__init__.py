from .addresses import AddressIn

__all__ = ["AddressIn"]
