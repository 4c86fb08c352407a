-- The shop on the morning of the episode.
INSERT INTO customers (id, name, email) VALUES
    (7, 'Dana Reyes', 'dana@example.com'),
    (8, 'Omar Said', 'omar@example.com');

INSERT INTO orders (id, customer_id, status, total_cents, captured_cents) VALUES
    (1042, 7, 'paid', 3200, 3200),
    (1043, 8, 'paid', 5400, 5400);

INSERT INTO order_items (order_id, sku, description, price_cents, qty) VALUES
    (1042, 'LAMP-01', 'Desk lamp', 2500, 1),
    (1042, 'BULB-4', 'Bulbs, pack of 4', 700, 1),
    (1043, 'LAMP-01', 'Desk lamp', 2500, 1),
    (1043, 'SHADE-2', 'Lamp shade', 2900, 1);
