-- Issue 32: account mail (password changed, card updated) belongs to the member, not to a business.
-- Such messages were filed under the business of the member's latest membership, so that business's owner
-- could read and resend them. Store them with no business, so only administrators see them on Sent mail.
-- Data only: no change to the tables.
UPDATE "mail_messages" SET "business_id" = NULL WHERE "template" IN ('password_changed', 'card_updated');
