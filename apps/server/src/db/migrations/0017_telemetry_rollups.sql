CREATE TABLE "telemetry_rollups" (
	"device_id" uuid NOT NULL,
	"path" text NOT NULL,
	"width_s" integer NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"min" double precision NOT NULL,
	"max" double precision NOT NULL,
	"sum" double precision NOT NULL,
	"count" integer NOT NULL,
	"last_ts" timestamp (6) with time zone NOT NULL,
	"last" double precision NOT NULL,
	CONSTRAINT "telemetry_rollups_device_id_path_width_s_bucket_pk" PRIMARY KEY("device_id","path","width_s","bucket")
);
