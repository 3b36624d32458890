package org.acme.ledger.client;

import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;

// Calls the notifier service: an outgoing request, not an entry point of the ledger.
@FeignClient(name = "notifier-service", path = "/notifier/v1")
public interface NotifierClient {

    @PostMapping("/notifications")
    void notify(@RequestBody NotificationMessage message);
}
