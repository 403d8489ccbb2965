-- CreateIndex
CREATE INDEX "subscriptions_started_at_id_idx" ON "subscriptions"("started_at" DESC, "id" DESC);
