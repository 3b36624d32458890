package com.acme.ledger.api;

import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/adjustments")
public class AdjustmentController {
    public record AdjustmentRequest(String accountId, long amountCents, String reason) {}

    @PostMapping
    public void adjust(@RequestBody AdjustmentRequest request) {
        entries.save(new LedgerEntry(request.accountId(), request.amountCents()));
    }
}
