from dataclasses import dataclass

from pydantic import BaseModel
from sqlalchemy import Column, Integer, String
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    pass


class Customer(Base):
    __tablename__ = "customers"

    id = Column(Integer, primary_key=True)
    email = Column(String)

    def display(self):
        return self.email


class Product(BaseModel):
    """A product for sale."""

    id: int
    name: str
    price: float


@dataclass
class CartLine:
    product_id: int
    quantity: int = 1
