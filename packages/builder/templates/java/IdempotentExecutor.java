package com.example.idempotency;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;

/**
 * Runs a controller's work once per idempotency key and replays the stored response to duplicates:
 *
 * <pre>
 * &#64;PostMapping("/payments")
 * ResponseEntity&lt;Object&gt; create(&#64;RequestHeader(value = "Idempotency-Key", required = false) String key,
 *                               &#64;RequestBody Map&lt;String, Object&gt; body, Principal principal) {
 *     return idempotent.execute("createPayment", key, principal.getName(), body, "/payments",
 *         () -> ResponseEntity.status(201).body(payments.create(body)));
 * }
 * </pre>
 *
 * The scope is the authenticated principal, never a value from the request body.
 */
@Component
public class IdempotentExecutor {
    private final IdempotencyEngine engine;
    private final ObjectMapper json;

    public IdempotentExecutor(IdempotencyEngine.Store store, ObjectMapper json) {
        this.engine = new IdempotencyEngine(store);
        this.json = json;
    }

    public ResponseEntity<Object> execute(String action, String idempotencyKey, String scope, Map<String, Object> body,
                                          String path, Supplier<ResponseEntity<Object>> handler) throws Exception {
        return execute(action, idempotencyKey, scope, body, path, null, handler);
    }

    /** As above, with the raw query string (request.getQueryString()): the runtime fingerprints it too. */
    public ResponseEntity<Object> execute(String action, String idempotencyKey, String scope, Object body,
                                          String path, String query, Supplier<ResponseEntity<Object>> handler) throws Exception {
        Object intent = IdempotencyEngine.validateIntent(idempotencyKey);
        if (intent instanceof IdempotencyEngine.Answer) return toResponse((IdempotencyEngine.Answer) intent);
        if (scope == null || scope.isEmpty()) {
            return toResponse(IdempotencyEngine.problem("unauthenticated", 0));
        }
        String fingerprint;
        try {
            fingerprint = Fingerprint.of(action, body, path, query);
        } catch (Fingerprint.UnhashableInputException e) {
            return toResponse(IdempotencyEngine.problem("invalid_body", 0));
        }
        IdempotencyEngine.Answer answer = engine.run(action, (String) intent, scope, fingerprint, () -> {
            ResponseEntity<Object> response = handler.get();
            return new IdempotencyEngine.Result(response.getStatusCode().value(), json.writeValueAsString(response.getBody()));
        });
        return toResponse(answer);
    }

    private ResponseEntity<Object> toResponse(IdempotencyEngine.Answer answer) throws Exception {
        ResponseEntity.BodyBuilder builder = ResponseEntity.status(answer.status());
        builder.header("Content-Type", answer.problemCode() != null ? "application/problem+json" : "application/json");
        if (answer.replayed()) builder.header("Idempotent-Replayed", "true");
        if (answer.retryAfterSeconds() > 0) builder.header("Retry-After", Long.toString(answer.retryAfterSeconds()));
        // A refusal is about this moment (a lease, a conflict): no cache may keep it.
        if (answer.problemCode() != null) builder.header("Cache-Control", "no-store");
        return builder.body(answer.body() == null ? null : json.readValue(answer.body(), Object.class));
    }
}
