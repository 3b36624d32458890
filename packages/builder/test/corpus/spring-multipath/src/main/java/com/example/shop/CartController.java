package com.example.shop;

import org.springframework.web.bind.annotation.*;

@RestController
@RequestMapping("/api/carts")
public class CartController {

    @PostMapping({"/{cartId}/items", "/{cartId}/lines"})
    public void addItem(@PathVariable String cartId, @RequestBody CartItem item) {
        repository.save(cartId, item);
    }

    @RequestMapping(value = "/{cartId}", method = RequestMethod.DELETE)
    public void clear(@PathVariable String cartId) {
        repository.delete(cartId);
    }
}
