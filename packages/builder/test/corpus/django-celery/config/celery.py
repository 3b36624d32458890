import os

from celery import Celery
from celery.schedules import crontab

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.on_after_configure.connect
def setup_periodic_tasks(sender, **kwargs):
    from billing.tasks import send_dunning_emails

    sender.add_periodic_task(
        crontab(hour=9, minute=30, day_of_week="mon-fri"),
        send_dunning_emails.s(),
        name="dunning e-mails on weekdays",
    )
