-- CreateEnum
CREATE TYPE "MailStatus" AS ENUM ('QUEUED', 'SENT', 'FAILED', 'HELD');

-- AlterTable
ALTER TABLE "pages" ADD COLUMN     "mail_precharge_notice" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "mail_reply_to" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "mail_sender_name" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "mail_window_reminder" BOOLEAN NOT NULL DEFAULT true;

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "mail_digest" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "mail_precharge_notice" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "mail_reminders" BOOLEAN NOT NULL DEFAULT true;

-- CreateTable
CREATE TABLE "mail_messages" (
    "id" SERIAL NOT NULL,
    "business_id" INTEGER,
    "dedupe_key" TEXT NOT NULL,
    "template" TEXT NOT NULL,
    "recipient_user_id" INTEGER,
    "to_address" TEXT NOT NULL,
    "from_name" TEXT NOT NULL,
    "reply_to" TEXT,
    "subject" TEXT NOT NULL,
    "html" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "message_id" TEXT NOT NULL,
    "status" "MailStatus" NOT NULL DEFAULT 'QUEUED',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "event_seq" BIGINT,
    "resend_of_id" INTEGER,
    "created_at" TIMESTAMP(3) NOT NULL,
    "sent_at" TIMESTAMP(3),
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "mail_messages_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "mail_messages_dedupe_key_key" ON "mail_messages"("dedupe_key");

-- CreateIndex
CREATE UNIQUE INDEX "mail_messages_message_id_key" ON "mail_messages"("message_id");

-- CreateIndex
CREATE INDEX "mail_messages_business_id_created_at_id_idx" ON "mail_messages"("business_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "mail_messages_created_at_id_idx" ON "mail_messages"("created_at" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "mail_messages" ADD CONSTRAINT "mail_messages_business_id_fkey" FOREIGN KEY ("business_id") REFERENCES "businesses"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mail_messages" ADD CONSTRAINT "mail_messages_recipient_user_id_fkey" FOREIGN KEY ("recipient_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
