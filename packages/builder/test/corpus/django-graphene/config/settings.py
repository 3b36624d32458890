INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.auth",
    "graphene_django",
    "shop",
]
DATABASES = {"default": {"ENGINE": "django.db.backends.postgresql", "NAME": "shop"}}
GRAPHENE = {"SCHEMA": "shop.schema.schema"}
