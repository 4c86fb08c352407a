-- The next morning: the payment provider settles every refund it was asked to make.
-- A refund the shop wrote down without asking the provider never settles.
UPDATE refunds
SET settled = 1
WHERE provider_ref IN (
    SELECT idempotency_key FROM outside_requests
    WHERE service = 'payments' AND operation = 'refund'
);
