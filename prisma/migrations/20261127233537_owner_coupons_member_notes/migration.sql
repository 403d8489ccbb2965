-- CreateEnum
CREATE TYPE "CouponDuration" AS ENUM ('ONCE', 'REPEATING', 'FOREVER');

-- DropIndex
DROP INDEX "coupons_code_key";

-- AlterTable
ALTER TABLE "coupons" ADD COLUMN     "business_id" INTEGER,
ADD COLUMN     "duration" "CouponDuration" NOT NULL DEFAULT 'FOREVER',
ADD COLUMN     "duration_months" INTEGER,
ADD COLUMN     "expires_at" TIMESTAMP(3),
ADD COLUMN     "max_redemptions" INTEGER,
ADD COLUMN     "plan_ids" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
ADD COLUMN     "redemption_count" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "coupon_redemptions" (
    "id" SERIAL NOT NULL,
    "coupon_id" INTEGER NOT NULL,
    "subscription_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "business_id" INTEGER NOT NULL,
    "redeemed_at" TIMESTAMP(3) NOT NULL,
    "charges_used" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "coupon_redemptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "membership_notes" (
    "id" SERIAL NOT NULL,
    "subscription_id" INTEGER NOT NULL,
    "author_id" INTEGER,
    "body" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "membership_notes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "coupon_redemptions_subscription_id_idx" ON "coupon_redemptions"("subscription_id");

-- CreateIndex
CREATE INDEX "coupon_redemptions_business_id_redeemed_at_idx" ON "coupon_redemptions"("business_id", "redeemed_at");

-- CreateIndex
CREATE UNIQUE INDEX "coupon_redemptions_coupon_id_subscription_id_key" ON "coupon_redemptions"("coupon_id", "subscription_id");

-- CreateIndex
CREATE INDEX "membership_notes_subscription_id_created_at_idx" ON "membership_notes"("subscription_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "coupons_business_id_code_key" ON "coupons"("business_id", "code");

-- AddForeignKey
ALTER TABLE "coupons" ADD CONSTRAINT "coupons_business_id_fkey" FOREIGN KEY ("business_id") REFERENCES "businesses"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "coupon_redemptions" ADD CONSTRAINT "coupon_redemptions_coupon_id_fkey" FOREIGN KEY ("coupon_id") REFERENCES "coupons"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "coupon_redemptions" ADD CONSTRAINT "coupon_redemptions_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "coupon_redemptions" ADD CONSTRAINT "coupon_redemptions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "coupon_redemptions" ADD CONSTRAINT "coupon_redemptions_business_id_fkey" FOREIGN KEY ("business_id") REFERENCES "businesses"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "membership_notes" ADD CONSTRAINT "membership_notes_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "membership_notes" ADD CONSTRAINT "membership_notes_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Written by hand (the Prisma schema cannot say these):

-- Platform coupons (no business) keep their codes unique among themselves, as the dropped coupons_code_key did.
CREATE UNIQUE INDEX "coupons_platform_code_key" ON "coupons"("code") WHERE "business_id" IS NULL;

-- Duration months only with REPEATING, a limit above zero and never passed.
ALTER TABLE "coupons" ADD CONSTRAINT "coupons_duration_months_check"
  CHECK (("duration" = 'REPEATING') = ("duration_months" IS NOT NULL) AND ("duration_months" IS NULL OR "duration_months" BETWEEN 2 AND 36));
ALTER TABLE "coupons" ADD CONSTRAINT "coupons_redemptions_check"
  CHECK ("redemption_count" >= 0 AND ("max_redemptions" IS NULL OR ("max_redemptions" > 0 AND "redemption_count" <= "max_redemptions")));
ALTER TABLE "coupon_redemptions" ADD CONSTRAINT "coupon_redemptions_charges_used_check" CHECK ("charges_used" >= 0);

-- Existing coupons are platform coupons that discount every charge (FOREVER, the default above). Each membership
-- that holds one has redeemed it: a redemption counting the charges made with it (its orders with that coupon).
INSERT INTO "coupon_redemptions" ("coupon_id", "subscription_id", "user_id", "business_id", "redeemed_at", "charges_used")
SELECT s."coupon_id", s."id", s."user_id", s."business_id", s."created_at",
       (SELECT count(*) FROM "orders" o WHERE o."subscription_id" = s."id" AND o."coupon_id" = s."coupon_id")::int
  FROM "subscriptions" s
 WHERE s."coupon_id" IS NOT NULL;
UPDATE "coupons" c SET "redemption_count" = (SELECT count(*) FROM "coupon_redemptions" r WHERE r."coupon_id" = c."id");
