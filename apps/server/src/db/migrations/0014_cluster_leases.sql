CREATE TABLE "cluster_instances" (
	"instance_id" text PRIMARY KEY NOT NULL,
	"internal_url" text NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gateway_leases" (
	"gateway_id" uuid PRIMARY KEY NOT NULL,
	"instance_id" text NOT NULL,
	"connection_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partition_leases" (
	"partition" integer PRIMARY KEY NOT NULL,
	"instance_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "gateway_leases" ADD CONSTRAINT "gateway_leases_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;