package org.acme.ledger.web;

import org.acme.ledger.api.TransfersApi;
import org.acme.ledger.model.TransferRequest;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RestController;

@RestController
public class TransfersController implements TransfersApi {
    private final TransferRepository transfers;

    public TransfersController(TransferRepository transfers) {
        this.transfers = transfers;
    }

    @Override
    public ResponseEntity<Void> createTransfer(TransferRequest transferRequest) {
        transfers.save(Transfer.from(transferRequest));
        return ResponseEntity.accepted().build();
    }

    @Override
    public ResponseEntity<Void> reverseTransfer(String transferId) {
        transfers.save(transfers.getReferenceById(transferId).reversed());
        return ResponseEntity.noContent().build();
    }
}
