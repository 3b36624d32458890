package org.acme.ledger.api;

import jakarta.validation.Valid;
import org.acme.ledger.model.TransferRequest;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;

// Corpus fixture: an API interface in the style of openapi-generator's spring "interfaceOnly" output.
@RequestMapping("/transfers")
public interface TransfersApi {

    @PostMapping(consumes = "application/json")
    default ResponseEntity<Void> createTransfer(@Valid @RequestBody TransferRequest transferRequest) {
        return new ResponseEntity<>(HttpStatus.NOT_IMPLEMENTED);
    }

    @PutMapping("/{transferId}/reversal")
    default ResponseEntity<Void> reverseTransfer(@PathVariable("transferId") String transferId) {
        return new ResponseEntity<>(HttpStatus.NOT_IMPLEMENTED);
    }
}
