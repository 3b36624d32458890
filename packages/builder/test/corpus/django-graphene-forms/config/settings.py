INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.auth",
    "rest_framework",
    "graphene_django",
    "accounts",
    "bookings",
    "billing",
]
AUTH_USER_MODEL = "accounts.User"
DATABASES = {"default": {"ENGINE": "django.db.backends.postgresql", "NAME": "clinic"}}
GRAPHENE = {"SCHEMA": "config.schema.schema"}
