from flask import Flask

from shop.routes import bp
from shop import errors

app = Flask(__name__)
app.register_blueprint(bp)


@app.before_request
def require_api_key():
    """Reject requests without a key."""
    pass


@app.route("/health")
def health():
    return {"ok": True}


if __name__ == "__main__":
    app.run()
