package com.acme.ledger.events;

import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.jms.annotation.JmsListener;
import org.springframework.stereotype.Component;

@Component
public class ShippingListener {
    private static final String LEGACY_ORDERS = "legacy.orders";

    @RabbitListener(queues = "${shipping.queue}")
    public void handleShipmentRequested(ShipmentRequested message) {
        // books the shipping fee on the merchant's account
    }

    @JmsListener(destination = LEGACY_ORDERS, containerFactory = "legacyFactory")
    public void importLegacyOrder(String xml) {
        // imports orders from the old ERP
    }
}
