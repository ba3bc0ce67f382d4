CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX "devices_org_status_idx";--> statement-breakpoint
CREATE INDEX "devices_search_trgm_idx" ON "devices" USING gin ("label" gin_trgm_ops,"alias" gin_trgm_ops,"serial_number" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "devices_org_last_seen_idx" ON "devices" USING btree ("organization_id","last_seen_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "devices_org_serial_idx" ON "devices" USING btree ("organization_id","serial_number","id");--> statement-breakpoint
CREATE INDEX "devices_org_created_idx" ON "devices" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "devices_tags_idx" ON "devices" USING gin ("tags" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "devices_org_status_idx" ON "devices" USING btree ("organization_id","status","id");