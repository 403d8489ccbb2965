-- Issue 32: partner API tokens carry scopes chosen at creation (memberships:read, orders:read, fulfilment:read).
ALTER TABLE "api_tokens" ADD COLUMN     "scopes" TEXT[] DEFAULT ARRAY['memberships:read', 'orders:read']::TEXT[];

-- Backfill: tokens created before scopes keep memberships and orders only, never fulfilment (a deliberate
-- narrowing, partners that read packing lists need a new token with fulfilment:read).
UPDATE "api_tokens" SET "scopes" = ARRAY['memberships:read', 'orders:read']::TEXT[];
