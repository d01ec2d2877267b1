from app import app


@app.errorhandler(404)
def not_found(error):
    return {"error": "not found"}, 404
