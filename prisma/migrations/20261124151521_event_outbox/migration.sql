-- CreateTable
CREATE TABLE "events" (
    "seq" BIGSERIAL NOT NULL,
    "business_id" INTEGER,
    "actor_type" TEXT NOT NULL,
    "actor_id" INTEGER,
    "object_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "events_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "event_consumers" (
    "name" TEXT NOT NULL,
    "position" BIGINT NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "event_consumers_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE INDEX "events_business_id_seq_idx" ON "events"("business_id", "seq");

-- CreateIndex
CREATE INDEX "events_created_at_idx" ON "events"("created_at");

-- Events are immutable: no UPDATE, ever (deleting rows past retention is allowed: api/events/outbox.ts pruneEvents).
-- The function body is an E'' string with \073 for its semicolons: @prisma/adapter-pg runs a migration by
-- splitting it at every semicolon, which would cut a dollar-quoted body apart.
CREATE FUNCTION "events_refuse_update"() RETURNS trigger LANGUAGE plpgsql AS
  E'BEGIN RAISE EXCEPTION ''events are immutable (seq %)'', OLD.seq\073 END\073';

CREATE TRIGGER "events_immutable" BEFORE UPDATE ON "events" FOR EACH ROW EXECUTE FUNCTION "events_refuse_update"();
