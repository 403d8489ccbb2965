-- AlterTable
ALTER TABLE "mail_messages" ADD COLUMN     "order_id" INTEGER;

-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "coupon_code" TEXT,
ADD COLUMN     "mode_surcharge_cents" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "tax_rate_bps" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "subscriptions" ADD COLUMN     "mode_surcharge_cents" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "mail_messages_order_id_idx" ON "mail_messages"("order_id");

-- AddForeignKey
ALTER TABLE "mail_messages" ADD CONSTRAINT "mail_messages_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Backfill (issue 30). Orders paid before this kept their amounts, and their rate and coupon code are read once from
-- what they point at. The surcharge of earlier orders stays 0 (their plan line shows the whole price of the variation).
UPDATE "orders" o SET "tax_rate_bps" = s."tax_rate_bps"
  FROM "subscriptions" s WHERE s."id" = o."subscription_id" AND o."tax_cents" > 0;
UPDATE "orders" o SET "coupon_code" = c."code"
  FROM "coupons" c WHERE c."id" = o."coupon_id";
-- The surcharge of a membership: its price over the pickup price of the plan today, when that is below it.
UPDATE "subscriptions" s SET "mode_surcharge_cents" = s."plan_amount_cents" - v."amount_cents"
  FROM "plan_variations" v
 WHERE v."plan_id" = s."plan_id" AND v."mode" = 'PICKUP' AND s."mode" <> 'PICKUP' AND v."amount_cents" < s."plan_amount_cents";
-- Receipts already sent point at their order (the event they answered names it).
UPDATE "mail_messages" m SET "order_id" = (e."payload"->>'orderId')::int
  FROM "events" e
 WHERE e."seq" = m."event_seq" AND m."template" IN ('welcome', 'renewal_receipt', 'restarted')
   AND jsonb_typeof(e."payload"->'orderId') = 'number'
   AND EXISTS (SELECT 1 FROM "orders" o WHERE o."id" = (e."payload"->>'orderId')::int);
