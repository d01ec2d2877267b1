from flask import Blueprint, request

from .models import Product
from .services import ProductService

bp = Blueprint("products", __name__, url_prefix="/products")
service = ProductService()


@bp.route("/", methods=["GET", "POST"])
def products():
    if request.method == "POST":
        return service.create(request.json)
    return service.list()


@bp.get("/<int:product_id>")
def product(product_id: int) -> Product:
    # @bp.get("/commented") is not a route
    return service.find(product_id)
