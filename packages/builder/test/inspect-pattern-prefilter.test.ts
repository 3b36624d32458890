/**
 * The Python pre-filter (python-prefilter.ts) only saves work: with it and without it, the corpus,
 * the fixtures and one sample per finding pattern give the same inspection, and each sample does
 * yield its finding — so a pattern whose literal the filter lacks fails here.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempProjects } from './support/temp-project.js';
import { inspectCodebase } from '../src/inspect/inspect-codebase.js';
import { pythonMayHoldFindings } from '../src/inspect/patterns/python-prefilter.js';
import type { Inspection } from '../src/inspect/types.js';

/** The inspection without its timings, which differ run to run. */
function comparable(inspection: Inspection): Omit<Inspection, 'scanMs'> {
  const { scanMs: _scanMs, ...rest } = inspection;
  return rest;
}

async function bothWays(dir: string): Promise<{ on: Omit<Inspection, 'scanMs'>; off: Omit<Inspection, 'scanMs'> }> {
  return { on: comparable(await inspectCodebase(dir)), off: comparable(await inspectCodebase(dir, {}, { prefilter: false })) };
}

/** One file per finding pattern of the Python scanners, each holding nothing but that pattern. */
const SAMPLES: Record<string, string> = {
  'routes/fastapi.py': 'from fastapi import APIRouter\nrouter = APIRouter(prefix="/orders")\n@router.post("/")\nasync def create(body: dict):\n    return body\n',
  'routes/flask_route.py': 'from flask import Blueprint\nbp = Blueprint("pay", __name__)\n@bp.route("/pay", methods=["POST"])\ndef pay():\n    return "ok"\n',
  'routes/api_view.py': '@api_view(["POST"])\ndef refund(request):\n    return None\n',
  'routes/class_view.py': 'class RefundView(APIView):\n    def post(self, request):\n        return None\n',
  'routes/viewset.py': 'class OrderViewSet(viewsets.ModelViewSet):\n    def create(self, request):\n        return None\n',
  'routes/mixin.py': 'class CaptureEndpoint(CreateModelMixin, GenericAPIView):\n    def post(self, request):\n        return None\n',
  'routes/ninja_operation.py': 'from ninja import NinjaAPI\napi = NinjaAPI()\n@api.api_operation(["PATCH"], "/orders/{order_id}")\ndef amend(req, order_id: int):\n    return None\n',
  'routes/litestar_handler.py': 'from litestar import post\n@post("/orders")\nasync def create(data: dict) -> None:\n    return None\n',
  'pay/stripe_sdk.py': 'def charge(c):\n    return stripe.Refund.create(charge=c)\n',
  'pay/stripe_client.py': 'def charge(client, c):\n    return client.v1.refunds.create(params={"charge": c})\n',
  'pay/adyen_sdk.py': 'import Adyen\ndef pay(a, body):\n    return a.checkout.payments_api.payments(body)\n',
  'pay/braintree_sdk.py': 'import braintree\ndef sale(gw, amount):\n    return gw.transaction.sale({"amount": amount})\n',
  'pay/stripe_rest.py': 'def charge(amount):\n    return requests.post("https://api.stripe.com/v1/charges", data={"amount": amount})\n',
  // The base URL comes from configuration: only `.post(` and the path are in the file.
  'pay/paypal_rest.py': 'def capture(base, oid):\n    return requests.post(f"{base}/v2/checkout/orders/{oid}/capture")\n',
  'pay/paypal_sdk.py': 'from paypalserversdk import Client\ndef create(orders, body):\n    return orders.create_order({"body": body})\n',
  'pay/paypal_checkout.py': 'from paypalcheckoutsdk.orders import OrdersCaptureRequest\ndef capture(oid):\n    return OrdersCaptureRequest(oid)\n',
  'consume/pika_consumer.py': 'def run(ch):\n    ch.basic_consume(queue="orders", on_message_callback=handle)\n',
  'consume/aio_pika_consumer.py': 'import aio_pika\nasync def run(queue):\n    async with queue.iterator() as it:\n        pass\n',
  'consume/kafka_consumer.py': 'def run():\n    return KafkaConsumer("payments", group_id="g")\n',
  'consume/confluent_consumer.py': 'from confluent_kafka import Consumer\ndef run(c):\n    c.subscribe(["refunds"])\n',
  'consume/nats_consumer.py': 'import nats\nasync def run(nc):\n    await nc.subscribe("invoices", cb=handle)\n',
  'consume/sqs_consumer.py': 'def run(sqs):\n    return sqs.receive_message(QueueUrl="https://sqs/q")\n',
  'db/postgres.py': 'def connect():\n    return psycopg2.connect("dbname=shop")\n',
  'db/engine.py': 'def make():\n    return create_engine("mysql://shop")\n',
  'db/cache.py': 'def cache():\n    return redis.Redis(host="localhost")\n',
  'db/mongo.py': 'def db():\n    return MongoClient("mongodb://localhost")\n',
  'db/amqp.py': 'def connect():\n    return pika.BlockingConnection()\n',
  'jobs/celery_tasks.py': 'from proj.celery import app\n@app.task(acks_late=True)\ndef charge(order_id):\n    pass\n',
  'jobs/beat.py': 'app.conf.beat_schedule = {"sync": {"task": "shop.tasks.sync", "schedule": 60}}\n',
  'jobs/periodic.py': 'def setup(sender, **kw):\n    sender.add_periodic_task(30.0, sync.s())\n',
  'jobs/db_beat.py': 'PeriodicTask.objects.create(name="nightly", task="billing.tasks.invoice", crontab=nightly)\n',
  'jobs/aps.py': 'from apscheduler.schedulers.background import BackgroundScheduler\ns = BackgroundScheduler()\ns.add_job(reconcile, "interval", minutes=5)\n',
  'jobs/aps_decorator.py': '@sched.scheduled_job("cron", hour=2)\ndef nightly():\n    pass\n',
  'jobs/flask_aps.py': 'from flask_apscheduler import APScheduler\nJOBS = [{"id": "sync", "func": "jobs:sync", "trigger": "interval", "seconds": 30}]\n',
  'jobs/schedule_lib.py': 'import schedule\nschedule.every(10).minutes.do(job)\n',
};

/** Django views take their paths from urls.py; a view no urls.py routes is named in a note. */
const URLS = {
  'routes/urls.py': [
    'from django.urls import path', 'from rest_framework.routers import DefaultRouter', 'from routes import api_view, viewset',
    'router = DefaultRouter()', 'router.register(r"orders", viewset.OrderViewSet)', 'urlpatterns = [path("refund/", api_view.refund)]', '',
  ].join('\n'),
};

/** Files with no finding literal: they must reach the facts-only path, and still give their shapes and facts. */
const PLAIN: Record<string, string> = {
  'shop/models.py': 'from pydantic import BaseModel\nclass OrderIn(BaseModel):\n    total: int\n    currency: str\n',
  'shop/__init__.py': 'from .models import OrderIn\nAPI_PREFIX = "/api"\n',
  'shop/util.py': 'def money(amount):\n    return round(amount, 2)\n',
};

const project = tempProjects('py-prefilter');

describe('the Python pre-filter', () => {
  it('lets plain modules go to facts only and keeps every sample of a finding pattern', () => {
    for (const [path, text] of Object.entries(PLAIN)) expect({ path, may: pythonMayHoldFindings(text) }).toEqual({ path, may: false });
    for (const [path, text] of Object.entries(SAMPLES)) expect({ path, may: pythonMayHoldFindings(text) }).toEqual({ path, may: true });
  });

  it('changes nothing on one sample per pattern, and each sample yields its finding', async () => {
    const { on, off } = await bothWays(project({ ...SAMPLES, ...URLS, ...PLAIN, 'requirements.txt': 'fastapi\ncelery\n' }));
    expect(on).toEqual(off);
    const located = new Set([...off.endpoints, ...off.paymentCalls, ...off.consumers, ...off.schedulers].map((f) => f.location.replace(/:\d+$/, '')));
    for (const evidence of [...off.evidence.databases, ...off.evidence.brokers]) located.add(evidence.location.replace(/:\d+$/, ''));
    for (const note of off.notes) located.add(note.replace(/:\d+:.*$/s, ''));
    expect(Object.keys(SAMPLES).filter((path) => !located.has(path))).toEqual([]);
  });

  it('changes nothing on the evaluation corpus and the fixtures', async () => {
    const dirs = ['corpus', 'fixtures'].flatMap((group) => readdirSync(join(import.meta.dirname, group)).map((name) => join(import.meta.dirname, group, name)));
    expect(dirs.length).toBeGreaterThan(20);
    for (const dir of dirs) {
      const { on, off } = await bothWays(dir);
      expect({ fixture: dir, ...on }).toEqual({ fixture: dir, ...off });
    }
  }, 120_000);
});
