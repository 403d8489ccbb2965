-- AlterTable
ALTER TABLE "pages" ADD COLUMN     "pause_max_months" INTEGER NOT NULL DEFAULT 3;

-- Written by hand: the page service validates 0 to 12 on every save, the database holds the same range
ALTER TABLE "pages" ADD CONSTRAINT "pages_pause_max_months_range" CHECK ("pause_max_months" BETWEEN 0 AND 12);
