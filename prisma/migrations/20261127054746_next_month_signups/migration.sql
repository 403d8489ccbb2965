-- CreateEnum
CREATE TYPE "AfterCutoff" AS ENUM ('REFUSE', 'NEXT_MONTH');

-- AlterTable
ALTER TABLE "pages" ADD COLUMN     "after_cutoff" "AfterCutoff" NOT NULL DEFAULT 'REFUSE';

-- AlterTable
ALTER TABLE "subscriptions" ADD COLUMN     "first_period" TEXT,
ADD COLUMN     "signup_setup_intent_id" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "subscriptions_signup_setup_intent_id_key" ON "subscriptions"("signup_setup_intent_id");
