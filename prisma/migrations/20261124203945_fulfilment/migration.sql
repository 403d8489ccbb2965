-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "fulfillment_point" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "pages" ADD COLUMN     "delivery_areas" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "pickup_points" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "plan_variations" ADD COLUMN     "capacity" INTEGER;

-- AlterTable
ALTER TABLE "plans" ADD COLUMN     "capacity" INTEGER;

-- AlterTable
ALTER TABLE "subscription_changes" ADD COLUMN     "fulfillment_point" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "subscriptions" ADD COLUMN     "fulfillment_point" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "gift_message" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "packing_snapshots" (
    "id" SERIAL NOT NULL,
    "business_id" INTEGER NOT NULL,
    "period" TEXT NOT NULL,
    "frozen_at" TIMESTAMP(3) NOT NULL,
    "trigger" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "packing_snapshots_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "packing_boxes" (
    "id" SERIAL NOT NULL,
    "snapshot_id" INTEGER NOT NULL,
    "subscription_id" INTEGER NOT NULL,
    "order_id" INTEGER,
    "user_id" INTEGER NOT NULL,
    "member_name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "phone" TEXT NOT NULL DEFAULT '',
    "plan_id" INTEGER NOT NULL,
    "plan_name" TEXT NOT NULL,
    "mode" "FulfillmentMode" NOT NULL,
    "fulfillment_point" TEXT NOT NULL DEFAULT '',
    "addons" JSONB NOT NULL DEFAULT '[]',
    "address" JSONB,
    "is_gift" BOOLEAN NOT NULL DEFAULT false,
    "gift_recipient" TEXT NOT NULL DEFAULT '',
    "gift_message" TEXT NOT NULL DEFAULT '',
    "total_cents" INTEGER NOT NULL,
    "hold" TEXT,

    CONSTRAINT "packing_boxes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "packing_snapshots_business_id_period_key" ON "packing_snapshots"("business_id", "period");

-- CreateIndex
CREATE INDEX "packing_boxes_snapshot_id_mode_fulfillment_point_idx" ON "packing_boxes"("snapshot_id", "mode", "fulfillment_point");

-- CreateIndex
CREATE UNIQUE INDEX "packing_boxes_snapshot_id_subscription_id_key" ON "packing_boxes"("snapshot_id", "subscription_id");

-- AddForeignKey
ALTER TABLE "packing_snapshots" ADD CONSTRAINT "packing_snapshots_business_id_fkey" FOREIGN KEY ("business_id") REFERENCES "businesses"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "packing_boxes" ADD CONSTRAINT "packing_boxes_snapshot_id_fkey" FOREIGN KEY ("snapshot_id") REFERENCES "packing_snapshots"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written: the single pickup address and delivery area become the first entries of their lists.
UPDATE "pages" SET "pickup_points" = ARRAY["pickup_address"] WHERE "pickup_address" <> '';
UPDATE "pages" SET "delivery_areas" = ARRAY["delivery_area"] WHERE "delivery_area" <> '';
ALTER TABLE "pages" ALTER COLUMN "pickup_points" SET NOT NULL, ALTER COLUMN "delivery_areas" SET NOT NULL;

-- A capacity is a count of places: none below zero.
ALTER TABLE "plans" ADD CONSTRAINT "plans_capacity_check" CHECK ("capacity" IS NULL OR "capacity" >= 0);
ALTER TABLE "plan_variations" ADD CONSTRAINT "plan_variations_capacity_check" CHECK ("capacity" IS NULL OR "capacity" >= 0);

-- A frozen box is never edited: later changes to its month are read as differences (api/fulfilment/). The body
-- is an E'' string with \073 for its semicolons (see the event outbox migration).
CREATE FUNCTION "packing_boxes_refuse_update"() RETURNS trigger LANGUAGE plpgsql AS
  E'BEGIN RAISE EXCEPTION ''packing boxes are frozen (id %)'', OLD.id\073 END\073';

CREATE TRIGGER "packing_boxes_frozen" BEFORE UPDATE ON "packing_boxes" FOR EACH ROW EXECUTE FUNCTION "packing_boxes_refuse_update"();
