-- Businesses that took members before payouts existed keep collecting on the platform's account until they connect.
UPDATE "businesses" SET "collects_on_platform" = true;

-- Each payment names its business: its membership's, else (a superseded checkout's) the business of the plan it bought.
UPDATE "payments" p SET "business_id" = COALESCE(
    (SELECT s."business_id" FROM "subscriptions" s WHERE s."id" = p."subscription_id"),
    (SELECT pl."business_id" FROM "plans" pl WHERE pl."id" = (p."purchase"->>'planId')::int))
  WHERE p."business_id" IS NULL;
