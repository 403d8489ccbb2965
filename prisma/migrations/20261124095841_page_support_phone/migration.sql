-- AlterTable
ALTER TABLE "pages" ADD COLUMN     "support_phone" TEXT NOT NULL DEFAULT '';
