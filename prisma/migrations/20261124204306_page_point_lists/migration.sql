-- AlterTable
ALTER TABLE "pages" DROP COLUMN "delivery_area",
DROP COLUMN "pickup_address";
