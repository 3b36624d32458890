package org.acme.ledger.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Positive;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import lombok.Builder;
import lombok.Data;

@Data
@Builder
public class TransferRequest {
    @JsonProperty("source_account") @NotBlank private String sourceAccount;

    @NotBlank
    @JsonProperty("destination_account")
    private String destinationAccount;

    @Positive private long amountCents;
    @NotBlank private String currency;
    @Builder.Default private List<String> tags = new ArrayList<>();
    private Map<String, String> metadata;
}
