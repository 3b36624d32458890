/**
 * Python body models as real apps write them: a class whose bases span several lines
 * (polarsource/polar's `class CheckoutUpdate(\n    MetadataInputMixin,\n    Schema,\n):`), and a
 * DRF view's `serializer_class` named through a module (`serializers.OrderSerializer` with
 * `from . import serializers`) or an import, looked up in the module the import leads to.
 */
import { describe, expect, it } from 'vitest';
import { tempProjects } from './support/temp-project.js';
import { inspectCodebase } from '../src/inspect/index.js';
import { scanPython } from '../src/inspect/patterns/python.js';

const project = tempProjects('py-models');
const lines = (...text: string[]): string => `${text.join('\n')}\n`;

async function bodies(files: Record<string, string>): Promise<Record<string, readonly string[]>> {
  const inspection = await inspectCodebase(project(files));
  return Object.fromEntries(inspection.endpoints.map((e) => [`${e.method} ${e.route}`, e.bodyFields]));
}

describe('a model class whose bases span several lines', () => {
  it('keeps its own fields and its mixin\'s, with the closing `):` at the class\'s level or indented', () => {
    const shapes = scanPython('polar/checkout/schemas.py', lines(
      'from polar.kit.schemas import Schema',
      'class MetadataInputMixin(Schema):',
      '    metadata: dict[str, str] = {}',
      'class CheckoutUpdate(',
      '    MetadataInputMixin,',
      '    Schema,',
      '):',
      '    customer_email: str | None = None',
      '    discount_code: str | None = None',
      'class CheckoutConfirm(MetadataInputMixin,',
      '                      Schema):',
      '    confirmation_token_id: str',
    )).shapes;
    expect(shapes.get('CheckoutUpdate')).toEqual(['...MetadataInputMixin', 'customer_email', 'discount_code']);
    expect(shapes.get('CheckoutConfirm')).toEqual(['...MetadataInputMixin', 'confirmation_token_id']);
  });

  it('gives a FastAPI endpoint the fields of such a model', async () => {
    const found = await bodies({
      'requirements.txt': 'fastapi\n',
      'app/schemas.py': lines(
        'from pydantic import BaseModel',
        'class MetadataInputMixin(BaseModel):',
        '    metadata: dict[str, str] = {}',
        'class CheckoutUpdate(',
        '    MetadataInputMixin,',
        '    BaseModel,',
        '):',
        '    customer_email: str | None = None',
      ),
      'app/main.py': lines(
        'from fastapi import FastAPI',
        'from app.schemas import CheckoutUpdate',
        'app = FastAPI()',
        '@app.patch("/checkouts/{id}")',
        'def update(id: str, checkout_update: CheckoutUpdate):',
        '    return repository.update(id, checkout_update)',
      ),
    });
    expect(found['PATCH /checkouts/{id}']).toEqual(['metadata', 'customer_email']);
  });
});

describe('a DRF serializer_class named through an import', () => {
  // Two apps declare one `OrderSerializer`: each view takes the one its own module names.
  const apps = {
    'requirements.txt': 'django\ndjangorestframework\n',
    'billing/serializers.py': lines(
      'from rest_framework import serializers',
      'class OrderSerializer(serializers.Serializer):',
      '    invoice_number = serializers.CharField()',
    ),
    'shop/serializers.py': lines(
      'from rest_framework import serializers',
      'class OrderSerializer(serializers.Serializer):',
      '    quantity = serializers.IntegerField()',
      '    sku = serializers.CharField()',
    ),
    'shop/urls.py': lines(
      'from django.urls import path',
      'from shop import views',
      'urlpatterns = [path("orders/", views.OrderCreate.as_view()), path("refunds/", views.RefundCreate.as_view())]',
    ),
    'urls.py': lines('from django.urls import include, path', 'urlpatterns = [path("api/", include("shop.urls"))]'),
  };

  it('reads `serializers.OrderSerializer` (`from . import serializers`) and `from shop.serializers import OrderSerializer as S` in the module they name', async () => {
    const found = await bodies({
      ...apps,
      'shop/views.py': lines(
        'from rest_framework import generics',
        'from . import serializers',
        'from shop.serializers import OrderSerializer as RefundSerializer',
        'class OrderCreate(generics.CreateAPIView):',
        '    serializer_class = serializers.OrderSerializer',
        'class RefundCreate(generics.CreateAPIView):',
        '    serializer_class = RefundSerializer',
      ),
    });
    expect(found['POST /api/orders/']).toEqual(['quantity', 'sku']);
    expect(found['POST /api/refunds/']).toEqual(['quantity', 'sku']);
  });

  it('falls back to the bare name when the module is not in the repository', async () => {
    const found = await bodies({
      ...apps,
      'shop/views.py': lines(
        'from rest_framework import generics',
        'from vendored import serializers',
        'class OrderCreate(generics.CreateAPIView):',
        '    serializer_class = serializers.OrderSerializer',
      ),
    });
    // The first declaration in walk order, as before imports were followed.
    expect(found['POST /api/orders/']).toEqual(['invoice_number']);
  });
});
