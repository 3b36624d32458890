package com.acme.ledger

object Topics {
    const val PAYMENT_CAPTURED = "payments.captured"
    const val REFUND_ISSUED = "refunds.issued"
}
