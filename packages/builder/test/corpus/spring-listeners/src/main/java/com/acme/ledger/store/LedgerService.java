package com.acme.ledger.store;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
public class LedgerService {
    private final ProcessedEventRepository processed;
    private final LedgerEntryRepository entries;

    public LedgerService(ProcessedEventRepository processed, LedgerEntryRepository entries) {
        this.processed = processed;
        this.entries = entries;
    }

    @Transactional
    public void record(String eventId, String accountId, long amountCents) {
        if (processed.existsByEventId(eventId)) {
            return;
        }
        processed.save(new ProcessedEvent(eventId));
        entries.save(new LedgerEntry(accountId, amountCents));
    }
}
