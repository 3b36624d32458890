from rest_framework import viewsets
from rest_framework.decorators import action, api_view


class InvoiceViewSet(viewsets.ModelViewSet):
    def create(self, request):
        data = request.data
        return Invoice.objects.create(customer_id=data["customer_id"], total_cents=data["total_cents"])

    def destroy(self, request, pk=None):
        return Invoice.objects.filter(pk=pk).delete()

    @action(detail=True, methods=["post"])
    def send(self, request, pk=None):
        return send_mail("Invoice", "...", None, [request.data.get("email")])


@api_view(["POST"])
def issue_credit_note(request):
    amount = request.data["amount"]
    return CreditNote.objects.create(amount=amount)
