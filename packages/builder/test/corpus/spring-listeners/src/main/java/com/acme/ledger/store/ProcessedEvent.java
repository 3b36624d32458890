package com.acme.ledger.store;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;

@Entity
public class ProcessedEvent {
    @Id
    @GeneratedValue
    private Long id;

    @Column(name = "event_id", nullable = false, unique = true)
    private String eventId;

    protected ProcessedEvent() {}

    public ProcessedEvent(String eventId) {
        this.eventId = eventId;
    }
}
