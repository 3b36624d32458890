import stripe
from django.conf import settings
from django.core.mail import send_mail
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from .models import Pledge


def donation_form(request):
    # The form posts back to itself: only the POST branch records a pledge.
    if request.method == "POST":
        pledge = Pledge.objects.create(
            donor_email=request.POST["donor_email"],
            amount_cents=request.POST["amount_cents"],
        )
        return redirect("pledge_detail", pledge_id=pledge.id)
    return render(request, "donations/form.html")


@require_POST
def charge(request):
    stripe.api_key = settings.STRIPE_SECRET_KEY
    intent = stripe.PaymentIntent.create(
        amount=int(request.POST["amount_cents"]),
        currency="eur",
        receipt_email=request.POST.get("donor_email"),
    )
    return render(request, "donations/pay.html", {"client_secret": intent.client_secret})


def cancel_pledge(request, pledge_id):
    # Linked from the pledge page: any method cancels.
    pledge = get_object_or_404(Pledge, pk=pledge_id)
    pledge.delete()
    return redirect("donation_form")


@require_safe
def pledge_detail(request, pledge_id):
    return render(request, "donations/pledge.html", {"pledge": get_object_or_404(Pledge, pk=pledge_id)})


@require_http_methods(["POST"])
def resend_receipt(request, pledge_id):
    pledge = get_object_or_404(Pledge, pk=pledge_id)
    send_mail("Your receipt", f"Thank you for {pledge.amount_cents}", None, [pledge.donor_email])
    return redirect("pledge_detail", pledge_id=pledge_id)


def thanks(request):
    return render(request, "donations/thanks.html")
