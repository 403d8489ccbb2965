-- CreateEnum
CREATE TYPE "PayoutStatus" AS ENUM ('PENDING', 'IN_TRANSIT', 'PAID', 'FAILED', 'CANCELED');

-- CreateTable
CREATE TABLE "payouts" (
    "id" SERIAL NOT NULL,
    "business_id" INTEGER NOT NULL,
    "provider" TEXT NOT NULL,
    "provider_payout_id" TEXT NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "status" "PayoutStatus" NOT NULL,
    "arrival_date" TEXT NOT NULL,
    "failure_code" TEXT,
    "failure_message" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "payouts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "payouts_provider_payout_id_key" ON "payouts"("provider_payout_id");

-- CreateIndex
CREATE INDEX "payouts_business_id_created_at_idx" ON "payouts"("business_id", "created_at");

-- AddForeignKey
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_business_id_fkey" FOREIGN KEY ("business_id") REFERENCES "businesses"("id") ON DELETE CASCADE ON UPDATE CASCADE;
