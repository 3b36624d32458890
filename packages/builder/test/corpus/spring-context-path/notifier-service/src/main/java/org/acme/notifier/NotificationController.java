package org.acme.notifier;

import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

@RestController
public class NotificationController {
    private final OutboxRepository outbox;

    public NotificationController(OutboxRepository outbox) {
        this.outbox = outbox;
    }

    @PostMapping("/notifications")
    public void send(@RequestBody NotificationRequest request) {
        outbox.save(new OutboxEntry(request.recipient(), request.channels()));
    }

    public record NotificationRequest(String recipient, java.util.Set<String> channels) {}
}
