-- CreateEnum
CREATE TYPE "CouponKind" AS ENUM ('CODE', 'RETENTION');

-- CreateEnum
CREATE TYPE "CancellationPolicy" AS ENUM ('PHONE', 'SELF_SERVICE');

-- CreateEnum
CREATE TYPE "RetentionOffer" AS ENUM ('SKIP', 'PAUSE', 'SWITCH_PLAN', 'DISCOUNT');

-- CreateEnum
CREATE TYPE "CancellationReason" AS ENUM ('TOO_EXPENSIVE', 'TOO_MUCH', 'MOVING', 'QUALITY', 'DELIVERY', 'TAKING_A_BREAK', 'OTHER');

-- CreateEnum
CREATE TYPE "CancellationOutcome" AS ENUM ('OPEN', 'RETAINED', 'CANCEL_SCHEDULED', 'WITHDRAWN', 'CANCELED');

-- AlterTable
ALTER TABLE "coupons" ADD COLUMN     "kind" "CouponKind" NOT NULL DEFAULT 'CODE';

-- AlterTable
ALTER TABLE "pages" ADD COLUMN     "cancellation_policy" "CancellationPolicy" NOT NULL DEFAULT 'PHONE',
ADD COLUMN     "retention_discount_percent" INTEGER NOT NULL DEFAULT 10,
ADD COLUMN     "retention_offers" "RetentionOffer"[] DEFAULT ARRAY['SKIP', 'PAUSE', 'SWITCH_PLAN']::"RetentionOffer"[];

-- AlterTable
ALTER TABLE "subscriptions" ADD COLUMN     "cancel_after_period" TEXT;

-- CreateTable
CREATE TABLE "cancellation_requests" (
    "id" SERIAL NOT NULL,
    "subscription_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "business_id" INTEGER NOT NULL,
    "reason" "CancellationReason" NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "offers_shown" "RetentionOffer"[],
    "offer_accepted" "RetentionOffer",
    "outcome" "CancellationOutcome" NOT NULL DEFAULT 'OPEN',
    "created_at" TIMESTAMP(3) NOT NULL,
    "decided_at" TIMESTAMP(3),

    CONSTRAINT "cancellation_requests_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "cancellation_requests_subscription_id_created_at_idx" ON "cancellation_requests"("subscription_id", "created_at");

-- CreateIndex
CREATE INDEX "cancellation_requests_business_id_created_at_idx" ON "cancellation_requests"("business_id", "created_at");

-- AddForeignKey
ALTER TABLE "cancellation_requests" ADD CONSTRAINT "cancellation_requests_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "cancellation_requests" ADD CONSTRAINT "cancellation_requests_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "cancellation_requests" ADD CONSTRAINT "cancellation_requests_business_id_fkey" FOREIGN KEY ("business_id") REFERENCES "businesses"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Written by hand (the Prisma schema cannot say these): the ranges the services validate, held by the database too
ALTER TABLE "pages" ADD CONSTRAINT "pages_retention_discount_percent_range" CHECK ("retention_discount_percent" BETWEEN 5 AND 50);
ALTER TABLE "cancellation_requests" ADD CONSTRAINT "cancellation_requests_note_length" CHECK (char_length("note") <= 500);
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_cancel_after_period_month" CHECK ("cancel_after_period" IS NULL OR "cancel_after_period" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$');

-- Written by hand: at most one scheduled cancel per membership (a double confirm cannot schedule two)
CREATE UNIQUE INDEX "cancellation_requests_one_scheduled" ON "cancellation_requests"("subscription_id") WHERE "outcome" = 'CANCEL_SCHEDULED';
