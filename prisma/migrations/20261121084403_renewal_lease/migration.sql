-- AlterTable
ALTER TABLE "subscriptions" ADD COLUMN     "renewal_lease_until" TIMESTAMP(3);

-- One open membership (unfinished, active or past due) per member and business: a double checkout from two
-- server processes cannot open two.
CREATE UNIQUE INDEX "subscriptions_one_open_per_member" ON "subscriptions"("user_id", "business_id")
  WHERE "status" IN ('INCOMPLETE', 'ACTIVE', 'PAST_DUE');
CREATE INDEX "subscriptions_renewal_due" ON "subscriptions"("business_id", "billing_day")
  WHERE "status" IN ('ACTIVE', 'PAST_DUE');
