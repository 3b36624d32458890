package com.acme.ledger.events;

import com.acme.ledger.Topics;
import com.acme.ledger.store.LedgerService;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

@Component
public class PaymentEventsListener {
    private final LedgerService ledger;

    public PaymentEventsListener(LedgerService ledger) {
        this.ledger = ledger;
    }

    @KafkaListener(id = "ledger-captured", topics = Topics.PAYMENT_CAPTURED, groupId = "ledger")
    public void onPaymentCaptured(PaymentCaptured event) {
        ledger.record(event.eventId(), event.accountId(), event.amountCents());
    }

    @KafkaListener(
        topics = {Topics.REFUND_ISSUED, "refunds.reversed"},
        concurrency = "3"
    )
    public void onRefund(RefundEvent event) {
        ledger.record(event.eventId(), event.accountId(), -event.amountCents());
    }
}
