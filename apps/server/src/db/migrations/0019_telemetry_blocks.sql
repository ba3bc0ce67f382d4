CREATE TABLE "telemetry_blocks" (
	"device_id" uuid NOT NULL,
	"path" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"count" integer NOT NULL,
	"kind" text NOT NULL,
	"deltas" bigint[] NOT NULL,
	"numbers" double precision[],
	"others" jsonb,
	CONSTRAINT "telemetry_blocks_device_id_hour_path_pk" PRIMARY KEY("device_id","hour","path")
);
--> statement-breakpoint
-- The values of one block, in order: each time is the hour's start plus the running sum of the deltas.
CREATE FUNCTION telemetry_block_values(p_hour timestamptz, p_kind text, p_deltas bigint[], p_numbers float8[], p_others jsonb)
RETURNS TABLE (ts timestamptz, value jsonb, seq bigint)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT p_hour + (sum(x.delta) OVER (ORDER BY x.n))::float8 * interval '1 microsecond',
    CASE p_kind WHEN 'number' THEN to_jsonb(x.number) WHEN 'boolean' THEN to_jsonb(x.number = 1)
      ELSE p_others -> (x.n::int - 1) END,
    x.n
  FROM unnest(p_deltas, p_numbers) WITH ORDINALITY AS x(delta, number, n)
$$;
--> statement-breakpoint
-- One device's values of one path between two times (inclusive), from the day partitions and the blocks alike.
-- `source` (0 blocks, 1 rows) and `seq` order values that share a time, stably while an export pages through them.
CREATE FUNCTION telemetry_series(p_device uuid, p_path text, p_from timestamptz, p_to timestamptz)
RETURNS TABLE (ts timestamptz, value jsonb, source int, seq bigint)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT t.ts, t.values -> p_path, 1, ((t.ctid::text::point)[0] * 65536 + (t.ctid::text::point)[1])::bigint
  FROM telemetry t
  WHERE t.device_id = p_device AND t.ts >= p_from AND t.ts <= p_to AND t.values ? p_path
  UNION ALL
  SELECT v.ts, v.value, 0, v.seq
  FROM telemetry_blocks b
  CROSS JOIN LATERAL telemetry_block_values(b.hour, b.kind, b.deltas, b.numbers, b.others) v
  WHERE b.device_id = p_device AND b.path = p_path AND b.hour > p_from - interval '1 hour' AND b.hour <= p_to
    AND v.ts >= p_from AND v.ts <= p_to
$$;
--> statement-breakpoint
-- One device's values of every path between two times (to exclusive), from the day partitions and the blocks alike.
CREATE FUNCTION telemetry_device_values(p_device uuid, p_from timestamptz, p_to timestamptz)
RETURNS TABLE (path text, ts timestamptz, value jsonb)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT e.key, t.ts, e.value
  FROM telemetry t CROSS JOIN LATERAL jsonb_each(t.values) AS e
  WHERE t.device_id = p_device AND t.ts >= p_from AND t.ts < p_to
  UNION ALL
  SELECT b.path, v.ts, v.value
  FROM telemetry_blocks b
  CROSS JOIN LATERAL telemetry_block_values(b.hour, b.kind, b.deltas, b.numbers, b.others) v
  WHERE b.device_id = p_device AND b.hour > p_from - interval '1 hour' AND b.hour < p_to
    AND v.ts >= p_from AND v.ts < p_to
$$;
