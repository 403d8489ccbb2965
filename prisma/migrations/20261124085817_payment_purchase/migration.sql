-- Each payment keeps what it was created to buy (purchase) and, when it cannot be matched to that, why it is
-- refunded (refund_reason): see api/billing/settlement.ts.
-- AlterTable
ALTER TABLE "payments" ADD COLUMN     "purchase" JSONB,
ADD COLUMN     "refund_reason" TEXT;
