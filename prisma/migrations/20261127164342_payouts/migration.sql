-- CreateEnum
CREATE TYPE "PaymentAccountStatus" AS ENUM ('ONBOARDING', 'ENABLED', 'RESTRICTED');

-- CreateEnum
CREATE TYPE "LedgerKind" AS ENUM ('CHARGE', 'REFUND');

-- AlterTable
ALTER TABLE "businesses" ADD COLUMN     "collects_on_platform" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "connect_from_period" TEXT;

-- AlterTable
ALTER TABLE "payments" ADD COLUMN     "application_fee_cents" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "business_id" INTEGER,
ADD COLUMN     "destination" TEXT;

-- CreateTable
CREATE TABLE "payment_accounts" (
    "id" SERIAL NOT NULL,
    "business_id" INTEGER NOT NULL,
    "provider" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "status" "PaymentAccountStatus" NOT NULL DEFAULT 'ONBOARDING',
    "charges_enabled" BOOLEAN NOT NULL DEFAULT false,
    "payouts_enabled" BOOLEAN NOT NULL DEFAULT false,
    "requirements_due" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "payment_accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "fee_schedules" (
    "id" SERIAL NOT NULL,
    "business_id" INTEGER,
    "effective_period" TEXT NOT NULL,
    "platform_bps" INTEGER NOT NULL,
    "platform_cents" INTEGER NOT NULL,
    "processing_bps" INTEGER NOT NULL,
    "processing_cents" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "fee_schedules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ledger_entries" (
    "id" SERIAL NOT NULL,
    "business_id" INTEGER NOT NULL,
    "payment_id" INTEGER,
    "kind" "LedgerKind" NOT NULL,
    "provider_id" TEXT NOT NULL,
    "period" TEXT NOT NULL,
    "occurred_at" TIMESTAMP(3) NOT NULL,
    "gross_cents" INTEGER NOT NULL,
    "platform_fee_cents" INTEGER NOT NULL,
    "processing_fee_cents" INTEGER NOT NULL,
    "net_cents" INTEGER NOT NULL,

    CONSTRAINT "ledger_entries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "payment_accounts_business_id_key" ON "payment_accounts"("business_id");

-- CreateIndex
CREATE UNIQUE INDEX "payment_accounts_account_id_key" ON "payment_accounts"("account_id");

-- CreateIndex
CREATE UNIQUE INDEX "ledger_entries_provider_id_key" ON "ledger_entries"("provider_id");

-- CreateIndex
CREATE INDEX "ledger_entries_business_id_occurred_at_idx" ON "ledger_entries"("business_id", "occurred_at");

-- AddForeignKey
ALTER TABLE "payments" ADD CONSTRAINT "payments_business_id_fkey" FOREIGN KEY ("business_id") REFERENCES "businesses"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_accounts" ADD CONSTRAINT "payment_accounts_business_id_fkey" FOREIGN KEY ("business_id") REFERENCES "businesses"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "fee_schedules" ADD CONSTRAINT "fee_schedules_business_id_fkey" FOREIGN KEY ("business_id") REFERENCES "businesses"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_business_id_fkey" FOREIGN KEY ("business_id") REFERENCES "businesses"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_payment_id_fkey" FOREIGN KEY ("payment_id") REFERENCES "payments"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Every ledger row balances: gross = platform fee + processing fee + net (a refund's amounts are all negative).
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_balanced" CHECK ("gross_cents" = "platform_fee_cents" + "processing_fee_cents" + "net_cents");

-- Ledger rows are written once. The one change allowed is the database's own: a deleted payment's id set to null.
CREATE FUNCTION "ledger_entries_refuse_update"() RETURNS trigger LANGUAGE plpgsql AS
  E'BEGIN IF NEW.payment_id IS NULL AND (NEW.id, NEW.business_id, NEW.kind, NEW.provider_id, NEW.period, NEW.occurred_at, NEW.gross_cents, NEW.platform_fee_cents, NEW.processing_fee_cents, NEW.net_cents) IS NOT DISTINCT FROM (OLD.id, OLD.business_id, OLD.kind, OLD.provider_id, OLD.period, OLD.occurred_at, OLD.gross_cents, OLD.platform_fee_cents, OLD.processing_fee_cents, OLD.net_cents) THEN RETURN NEW\073 END IF\073 RAISE EXCEPTION ''ledger entries are immutable (id %)'', OLD.id\073 END\073';

CREATE TRIGGER "ledger_entries_immutable" BEFORE UPDATE ON "ledger_entries" FOR EACH ROW EXECUTE FUNCTION "ledger_entries_refuse_update"();

-- One fee schedule per owner (a business, or the platform's default: business_id null) and month.
CREATE UNIQUE INDEX "fee_schedules_owner_period_key" ON "fee_schedules"(COALESCE("business_id", 0), "effective_period");
