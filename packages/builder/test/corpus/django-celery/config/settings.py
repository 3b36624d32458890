"""Settings for the subscriptions service (Django + Celery, the CELERY_ namespace)."""
import os

from celery.schedules import crontab

SECRET_KEY = os.environ["DJANGO_SECRET_KEY"]
INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "rest_framework",
    "django_celery_beat",
    "billing",
    "webhooks",
]
ROOT_URLCONF = "config.urls"
DATABASES = {"default": {"ENGINE": "django.db.backends.postgresql", "NAME": "subscriptions"}}

CELERY_BROKER_URL = os.environ.get("REDIS_URL", "redis://localhost:6379/0")
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1

CELERY_BEAT_SCHEDULE = {
    "charge-due-subscriptions": {
        "task": "billing.tasks.charge_due_subscriptions",
        "schedule": crontab(minute=0, hour="*/1"),
    },
    "expire-stale-invoices": {
        "task": "billing.tasks.expire_stale_invoices",
        "schedule": 900.0,
        "options": {"expires": 600},
    },
}
