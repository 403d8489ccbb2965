-- AlterTable
ALTER TABLE "payments" ADD COLUMN     "paid_at" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "payments_paid_at_idx" ON "payments"("paid_at");

-- Written by hand: payments that succeeded before this column count as paid when they were created, the day
-- reconciliation checked them on until now.
UPDATE "payments" SET "paid_at" = "created_at" WHERE "status" = 'SUCCEEDED';
