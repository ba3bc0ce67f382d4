-- Rollups of the values stored so far (from now on the statement that stores values keeps them current).
INSERT INTO "telemetry_rollups" ("device_id", "path", "width_s", "bucket", "min", "max", "sum", "count", "last_ts", "last")
SELECT "device_id", "path", "width_s", "bucket", min("v"), max("v"), sum("v"), count(*)::int, max("ts"),
  (array_agg("v" ORDER BY "ts" DESC))[1]
FROM (
  SELECT t."device_id", e.key AS "path", w."width_s", t."ts",
    to_timestamp(floor(extract(epoch FROM t."ts") / w."width_s") * w."width_s") AS "bucket",
    CASE jsonb_typeof(e.value) WHEN 'number' THEN e.value::float8 WHEN 'boolean' THEN (e.value = 'true'::jsonb)::int END AS "v"
  FROM "telemetry" t
  CROSS JOIN LATERAL jsonb_each(t."values") AS e
  CROSS JOIN (VALUES (60), (3600)) AS w("width_s")
  WHERE jsonb_typeof(e.value) IN ('number', 'boolean')
) AS "numeric_values"
GROUP BY "device_id", "path", "width_s", "bucket";
--> statement-breakpoint
-- The table becomes partitioned by UTC day. The rows stored so far stay where they are: the old table is attached as
-- the partition of everything before the day after its last row (or dropped when empty).
ALTER TABLE "telemetry" RENAME TO "telemetry_legacy";
--> statement-breakpoint
ALTER INDEX "telemetry_device_ts_idx" RENAME TO "telemetry_legacy_device_ts_idx";
--> statement-breakpoint
CREATE TABLE "telemetry" (
	"device_id" uuid NOT NULL,
	"ts" timestamp (6) with time zone NOT NULL,
	"values" jsonb NOT NULL
) PARTITION BY RANGE ("ts");
--> statement-breakpoint
CREATE INDEX "telemetry_device_ts_idx" ON "telemetry" USING btree ("device_id","ts");
--> statement-breakpoint
DO $$
DECLARE
  last_day timestamptz;
BEGIN
  SELECT date_trunc('day', max("ts") AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' + interval '1 day' INTO last_day
  FROM "telemetry_legacy";
  IF last_day IS NULL THEN
    DROP TABLE "telemetry_legacy";
  ELSE
    EXECUTE format('ALTER TABLE "telemetry" ATTACH PARTITION "telemetry_legacy" FOR VALUES FROM (MINVALUE) TO (%L)', last_day);
  END IF;
END $$;
