CREATE TABLE "gateway_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"gateway_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"level" text DEFAULT 'INFO' NOT NULL,
	"system" boolean DEFAULT false NOT NULL,
	"message" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gateways" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"device_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"lan_network" text,
	"vpn_ip" text,
	"profile_id" uuid,
	"ip_filter" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"agent_secret_hash" text,
	"agent_version" text,
	"agent_address" text,
	"status" text DEFAULT 'OFFLINE' NOT NULL,
	"connected_at" timestamp with time zone,
	"last_seen_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gateways_device_id_unique" UNIQUE("device_id")
);
--> statement-breakpoint
CREATE TABLE "vpn_action_profiles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"otp_required" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vpn_actions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"profile_id" uuid,
	"name" text NOT NULL,
	"protocol" text NOT NULL,
	"port" integer NOT NULL,
	"path" text DEFAULT '/' NOT NULL,
	"client_os" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vpn_application_passwords" (
	"organization_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"action_id" uuid NOT NULL,
	"secret" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vpn_application_passwords_user_id_action_id_pk" PRIMARY KEY("user_id","action_id")
);
--> statement-breakpoint
CREATE TABLE "vpn_application_preferences" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"gateway_name" text NOT NULL,
	"endpoint_name" text NOT NULL,
	"action_name" text NOT NULL,
	"client_os" text DEFAULT '' NOT NULL,
	"label" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vpn_connections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"gateway_id" uuid NOT NULL,
	"endpoint_id" uuid,
	"user_id" uuid NOT NULL,
	"client_ip" text NOT NULL,
	"client_os" text DEFAULT '' NOT NULL,
	"otp_verified" boolean DEFAULT false NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"end_reason" text
);
--> statement-breakpoint
CREATE TABLE "vpn_endpoints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"gateway_id" uuid NOT NULL,
	"name" text NOT NULL,
	"address" text NOT NULL,
	"protocol" text NOT NULL,
	"port" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"source" text DEFAULT 'PORTAL' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vpn_legacy_sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vpn_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"gateway_id" uuid NOT NULL,
	"endpoint_id" uuid,
	"connection_id" uuid,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"protocol" text NOT NULL,
	"target_address" text NOT NULL,
	"target_port" integer NOT NULL,
	"client_ip" text NOT NULL,
	"secret_hash" text NOT NULL,
	"ticket_hash" text,
	"ticket_expires_at" timestamp with time zone,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_activity_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"end_reason" text,
	"bytes_in" bigint DEFAULT 0 NOT NULL,
	"bytes_out" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "gateway_logs" ADD CONSTRAINT "gateway_logs_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_logs" ADD CONSTRAINT "gateway_logs_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateways" ADD CONSTRAINT "gateways_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateways" ADD CONSTRAINT "gateways_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateways" ADD CONSTRAINT "gateways_profile_id_vpn_action_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."vpn_action_profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_action_profiles" ADD CONSTRAINT "vpn_action_profiles_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_actions" ADD CONSTRAINT "vpn_actions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_actions" ADD CONSTRAINT "vpn_actions_profile_id_vpn_action_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."vpn_action_profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_application_passwords" ADD CONSTRAINT "vpn_application_passwords_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_application_passwords" ADD CONSTRAINT "vpn_application_passwords_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_application_passwords" ADD CONSTRAINT "vpn_application_passwords_action_id_vpn_actions_id_fk" FOREIGN KEY ("action_id") REFERENCES "public"."vpn_actions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_application_preferences" ADD CONSTRAINT "vpn_application_preferences_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_application_preferences" ADD CONSTRAINT "vpn_application_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_connections" ADD CONSTRAINT "vpn_connections_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_connections" ADD CONSTRAINT "vpn_connections_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_connections" ADD CONSTRAINT "vpn_connections_endpoint_id_vpn_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."vpn_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_connections" ADD CONSTRAINT "vpn_connections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_endpoints" ADD CONSTRAINT "vpn_endpoints_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_endpoints" ADD CONSTRAINT "vpn_endpoints_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_legacy_sessions" ADD CONSTRAINT "vpn_legacy_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_legacy_sessions" ADD CONSTRAINT "vpn_legacy_sessions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_sessions" ADD CONSTRAINT "vpn_sessions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_sessions" ADD CONSTRAINT "vpn_sessions_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_sessions" ADD CONSTRAINT "vpn_sessions_endpoint_id_vpn_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."vpn_endpoints"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_sessions" ADD CONSTRAINT "vpn_sessions_connection_id_vpn_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."vpn_connections"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_sessions" ADD CONSTRAINT "vpn_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gateway_logs_gateway_at_idx" ON "gateway_logs" USING btree ("gateway_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "gateways_org_name_idx" ON "gateways" USING btree ("organization_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "vpn_action_profiles_org_name_idx" ON "vpn_action_profiles" USING btree ("organization_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "vpn_actions_org_name_idx" ON "vpn_actions" USING btree ("organization_id","name");--> statement-breakpoint
CREATE INDEX "vpn_application_preferences_user_idx" ON "vpn_application_preferences" USING btree ("organization_id","user_id");--> statement-breakpoint
CREATE INDEX "vpn_connections_user_idx" ON "vpn_connections" USING btree ("organization_id","user_id","gateway_id");--> statement-breakpoint
CREATE UNIQUE INDEX "vpn_endpoints_gateway_name_idx" ON "vpn_endpoints" USING btree ("gateway_id","name");--> statement-breakpoint
CREATE INDEX "vpn_sessions_gateway_idx" ON "vpn_sessions" USING btree ("gateway_id","started_at");--> statement-breakpoint
CREATE INDEX "vpn_sessions_org_idx" ON "vpn_sessions" USING btree ("organization_id","started_at");