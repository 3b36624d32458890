package org.acme.ledger.web;

import static org.springframework.web.bind.annotation.RequestMethod.POST;
import static org.springframework.web.bind.annotation.RequestMethod.PUT;

import jakarta.validation.Valid;
import org.acme.ledger.model.HoldRequest;
import org.acme.ledger.model.OpenAccountRequest;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Opens accounts and places holds on them. This class is the only writer of holds:
 * a hold placed twice blocks the amount twice.
 */
@RestController
@RequestMapping("/accounts")
public class AccountsController {
    private final AccountRepository accounts;

    public AccountsController(AccountRepository accounts) {
        this.accounts = accounts;
    }

    @RequestMapping(method = POST)
    public Account open(@Valid @RequestBody OpenAccountRequest request) {
        return accounts.save(new Account(request.getOwnerId(), request.getDisplayName()));
    }

    // @PostMapping("/{id}/close") was retired with the v1 API.

    @RequestMapping(path = "/{id}/holds", method = {POST, PUT})
    public void placeHold(@PathVariable String id, @RequestBody HoldRequest hold) {
        accounts.save(accounts.getReferenceById(id).hold(hold.amountCents(), hold.reason()));
    }
}
