package org.acme.ledger.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import jakarta.validation.constraints.Size;

public record HoldRequest(@JsonProperty("amount_cents") long amountCents, @Size(max = 140) String reason) {}
