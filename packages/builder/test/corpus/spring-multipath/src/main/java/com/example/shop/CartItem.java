package com.example.shop;

// Corpus fixture: a record body.
public record CartItem(String sku, int quantity) {}
