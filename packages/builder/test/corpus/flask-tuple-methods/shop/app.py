from flask import Flask

from shop import carts, refunds


def create_app():
    app = Flask(__name__)
    app.register_blueprint(carts.blueprint)
    app.register_blueprint(refunds.blueprint)
    return app
