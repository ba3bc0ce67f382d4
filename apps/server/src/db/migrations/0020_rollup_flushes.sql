CREATE TABLE "telemetry_rollup_flushes" (
	"instance" text PRIMARY KEY NOT NULL,
	"flushed_at" timestamp with time zone NOT NULL,
	"clean" boolean NOT NULL
);
