/**
 * graphene-django mutations whose input is a Django form or a DRF serializer, and root Mutation
 * fields that resolve themselves, on small generated projects for what the django-graphene-forms
 * corpus fixture does not cover: imports by module, abstract model bases, fields removed at run
 * time, the mutation's own only_fields/exclude_fields, a serializer on '__all__', and the honest
 * "not determined" when a form extends a class the repository does not hold.
 */
import { describe, expect, it } from 'vitest';
import { tempProjects } from './support/temp-project.js';
import { inspectCodebase } from '../src/inspect/index.js';


const project = tempProjects('graphql-django', { 'requirements.txt': 'Django==5.0\ngraphene-django==3.2\ndjangorestframework==3.15\n' });

const URLS = 'from django.urls import path\nfrom graphene_django.views import GraphQLView\nurlpatterns = [path("graphql/", GraphQLView.as_view())]\n';
const ops = (endpoints: ReadonlyArray<{ operation?: string; bodyFields: readonly string[] }>) => endpoints.map((e) => `${e.operation} [${e.bodyFields.join(',')}]`).sort();

describe('graphene-django form and serializer mutations', () => {
  it('follows `from . import forms` and `from ..core.models import`, abstract bases, run-time removals and only_fields/exclude_fields', async () => {
    const dir = project({
      'api/urls.py': URLS,
      'core/models.py': [
        'from django.db import models',
        'class Stamped(models.Model):',
        '    created_at = models.DateTimeField(auto_now_add=True)',
        '    owner = models.ForeignKey("auth.User", on_delete=models.CASCADE)',
        '    class Meta:',
        '        abstract = True',
        'class Ticket(Stamped):',
        '    uid = models.CharField(max_length=12, primary_key=True)',
        '    title = models.CharField(max_length=80)',
        '    internal_score = models.IntegerField(editable=False, default=0)',
        '    priority = models.IntegerField(default=3)',
      ].join('\n'),
      'desk/forms.py': [
        'from django import forms',
        'from ..core.models import Ticket',
        'class TicketForm(forms.ModelForm):',
        '    class Meta:',
        '        model = Ticket',
        '        exclude = ["owner"]',
        '    def __init__(self, *args, **kwargs):',
        '        super().__init__(*args, **kwargs)',
        '        del self.fields["priority"]',
      ].join('\n'),
      'desk/mutations.py': [
        'import graphene',
        'from graphene_django.forms.mutation import DjangoModelFormMutation',
        'from . import forms',
        'class OpenTicket(DjangoModelFormMutation):',
        '    class Meta:',
        '        form_class = forms.TicketForm',
        '        exclude_fields = ("id",)',
        'class RenameTicket(DjangoModelFormMutation):',
        '    class Meta:',
        '        form_class = forms.TicketForm',
        '        only_fields = ["uid", "title"]',
        'class Mutation(graphene.ObjectType):',
        '    open_ticket = OpenTicket.Field()',
        '    rename_ticket = RenameTicket.Field()',
      ].join('\n'),
    });
    const inspection = await inspectCodebase(dir);
    // Ticket's key is `uid` (no auto `id`); `priority` is deleted in __init__; OpenTicket excludes the added `id`.
    expect(ops(inspection.endpoints)).toEqual(['mutation openTicket [uid,title]', 'mutation renameTicket [uid,title,id]']);
  });

  it("a ModelSerializer on '__all__' gives the model's writable fields and its key; a form on a class outside the repository is not guessed", async () => {
    const dir = project({
      'api/urls.py': URLS,
      'shop/models.py': [
        'from django.db import models',
        'class Refund(models.Model):',
        '    order_ref = models.CharField(max_length=20)',
        '    amount_cents = models.IntegerField()',
        '    status = models.CharField(max_length=10, default="open")',
        '    requested_at = models.DateTimeField(auto_now_add=True)',
      ].join('\n'),
      'shop/serializers.py': [
        'from rest_framework import serializers',
        'from .models import Refund',
        'class RefundSerializer(serializers.ModelSerializer):',
        '    class Meta:',
        '        model = Refund',
        '        fields = "__all__"',
        '        read_only_fields = ("status",)',
      ].join('\n'),
      'shop/forms.py': [
        'from crispy_forms.helper import FormHelperMixin',
        'from django import forms',
        'class ContactForm(FormHelperMixin, forms.Form):',
        '    email = forms.EmailField()',
      ].join('\n'),
      'shop/schema.py': [
        'import graphene',
        'from graphene_django.forms.mutation import DjangoFormMutation',
        'from graphene_django.rest_framework.mutation import SerializerMutation',
        'from shop.forms import ContactForm',
        'from shop.serializers import RefundSerializer',
        'class RequestRefund(SerializerMutation):',
        '    class Meta:',
        '        serializer_class = RefundSerializer',
        'class Contact(DjangoFormMutation):',
        '    class Meta:',
        '        form_class = ContactForm',
        'class Mutation(graphene.ObjectType):',
        '    request_refund = RequestRefund.Field()',
        '    contact = Contact.Field()',
      ].join('\n'),
    });
    const inspection = await inspectCodebase(dir);
    expect(ops(inspection.endpoints)).toEqual(['mutation contact []', 'mutation requestRefund [id,order_ref,amount_cents]']);
    expect(inspection.notes.join('\n')).toMatch(/graphene mutation Contact takes its input from form ContactForm, .*FormHelperMixin \(from crispy_forms\.helper\).*the whole input is the fingerprint/);
    // The library saves the serializer: no span of its own, so the write is assumed, not "nothing seen".
    expect(inspection.endpoints.find((e) => e.operation === 'mutation requestRefund')?.cost?.level).toBe('write');
  });
});

describe('graphene root Mutation fields with their own resolver', () => {
  it('reads the Field keywords and args={…} as arguments, honours name=, and skips fields with no resolver', async () => {
    const dir = project({
      'api/urls.py': URLS,
      'api/schema.py': [
        'import graphene',
        'from .types import PaymentType, PayInput',
        'class Mutation(graphene.ObjectType):',
        '    capture = graphene.Field(PaymentType, payment_id=graphene.ID(required=True), amount=graphene.Int(), description="Capture a held payment")',
        '    pay = graphene.Field(',
        '        PaymentType,',
        '        args={"input": PayInput(required=True), "note": graphene.String()},',
        '        name="payOrder",',
        '    )',
        '    ping = graphene.String()',
        '    def resolve_capture(root, info, payment_id, amount=None):',
        '        return Payment.objects.filter(pk=payment_id).update(captured=amount)',
        '    def resolve_pay(root, info, input, note=None):',
        '        return Payment.objects.create(order_id=input.order_id, note=note)',
        'class Query(graphene.ObjectType):',
        '    payment = graphene.Field(PaymentType, payment_id=graphene.ID())',
        '    def resolve_payment(root, info, payment_id):',
        '        return Payment.objects.get(pk=payment_id)',
      ].join('\n'),
      'api/types.py': 'import graphene\nclass PayInput(graphene.InputObjectType):\n    order_id = graphene.ID(required=True)\n    method = graphene.String()\n',
    });
    const inspection = await inspectCodebase(dir);
    expect(ops(inspection.endpoints)).toEqual(['mutation capture [payment_id,amount]', 'mutation payOrder [note,order_id,method]']);
    expect(inspection.endpoints.every((e) => e.route === '/graphql/')).toBe(true);
  });
});
