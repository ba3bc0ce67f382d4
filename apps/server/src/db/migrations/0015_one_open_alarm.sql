-- Before the index: an older duplicate open alarm of a rule and device (raised twice by two instances) is closed.
UPDATE "alarms" a SET "status" = 'CLEARED', "cleared_at" = now(), "cleared_by" = 'system', "updated_at" = now()
WHERE a."cleared_at" IS NULL AND a."rule_id" IS NOT NULL AND a."device_id" IS NOT NULL AND EXISTS (
	SELECT 1 FROM "alarms" b WHERE b."rule_id" = a."rule_id" AND b."device_id" = a."device_id" AND b."cleared_at" IS NULL
	AND (b."raised_at", b."id") > (a."raised_at", a."id")
);--> statement-breakpoint
CREATE UNIQUE INDEX "alarms_open_rule_device_idx" ON "alarms" USING btree ("rule_id","device_id") WHERE "alarms"."cleared_at" is null and "alarms"."rule_id" is not null and "alarms"."device_id" is not null;