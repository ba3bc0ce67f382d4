DROP TABLE "telemetry_rollup_queue" CASCADE;
--> statement-breakpoint
CREATE TABLE "telemetry_rollup_queue" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"devices" uuid[] NOT NULL,
	"paths" text[] NOT NULL,
	"device_of" integer[] NOT NULL,
	"path_of" integer[] NOT NULL,
	"times" double precision[] NOT NULL,
	"numbers" double precision[] NOT NULL
);

--> statement-breakpoint
-- Random ids, times and measured values do not compress: trying (pglz) costs time on every stored batch.
ALTER TABLE "telemetry_rollup_queue" ALTER COLUMN "devices" SET STORAGE EXTERNAL;
--> statement-breakpoint
ALTER TABLE "telemetry_rollup_queue" ALTER COLUMN "times" SET STORAGE EXTERNAL;
--> statement-breakpoint
ALTER TABLE "telemetry_rollup_queue" ALTER COLUMN "numbers" SET STORAGE EXTERNAL;
