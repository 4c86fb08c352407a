-- The shop's own database, as the support agent's tools read and write it.
CREATE TABLE customers (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    email TEXT NOT NULL UNIQUE
);

CREATE TABLE orders (
    id INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customers (id),
    status TEXT NOT NULL CHECK (status IN ('paid', 'partially_refunded', 'refunded')),
    total_cents INTEGER NOT NULL,
    captured_cents INTEGER NOT NULL
);

CREATE TABLE order_items (
    id INTEGER PRIMARY KEY,
    order_id INTEGER NOT NULL REFERENCES orders (id),
    sku TEXT NOT NULL,
    description TEXT NOT NULL,
    price_cents INTEGER NOT NULL,
    qty INTEGER NOT NULL
);

-- One row per refund the shop recorded; provider_ref is the idempotency key it sent.
CREATE TABLE refunds (
    id INTEGER PRIMARY KEY,
    order_id INTEGER NOT NULL REFERENCES orders (id),
    amount_cents INTEGER NOT NULL,
    reason TEXT NOT NULL,
    provider_ref TEXT,
    settled INTEGER NOT NULL DEFAULT 0,
    turn INTEGER NOT NULL
);

-- Every request the shop sent to an emulated outside service (the payment provider,
-- the mail server) that the service acted on. A retry carrying an idempotency key the
-- service has already seen is answered from its record and adds no row; the same
-- request sent again under a new key is a second effect: a second refund, a second email.
CREATE TABLE outside_requests (
    id INTEGER PRIMARY KEY,
    service TEXT NOT NULL,
    operation TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    payload TEXT NOT NULL,
    turn INTEGER NOT NULL
);
