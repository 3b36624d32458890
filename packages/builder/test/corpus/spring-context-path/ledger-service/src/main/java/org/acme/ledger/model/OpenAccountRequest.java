package org.acme.ledger.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import jakarta.validation.constraints.NotBlank;
import lombok.Getter;
import lombok.NoArgsConstructor;

@Getter
@NoArgsConstructor
public class OpenAccountRequest {
    @NotBlank(message = "can't be empty") private String ownerId;
    @JsonProperty("display_name") private String displayName;
}
