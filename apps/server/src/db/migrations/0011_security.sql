CREATE TABLE "login_failures" (
	"realm" text NOT NULL,
	"username" text NOT NULL,
	"client_address" text NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"last_failure_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	CONSTRAINT "login_failures_realm_username_client_address_pk" PRIMARY KEY("realm","username","client_address")
);
--> statement-breakpoint
CREATE TABLE "organization_invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"invited_by" uuid,
	"role_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"group_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "realms" ADD COLUMN "owner_organization_id" uuid;--> statement-breakpoint
ALTER TABLE "login_failures" ADD CONSTRAINT "login_failures_realm_realms_name_fk" FOREIGN KEY ("realm") REFERENCES "public"."realms"("name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_invitations" ADD CONSTRAINT "organization_invitations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_invitations" ADD CONSTRAINT "organization_invitations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_invitations" ADD CONSTRAINT "organization_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "organization_invitations_org_user_idx" ON "organization_invitations" USING btree ("organization_id","user_id");--> statement-breakpoint
CREATE INDEX "organization_invitations_user_idx" ON "organization_invitations" USING btree ("user_id");--> statement-breakpoint
UPDATE "realms" SET "owner_organization_id" = (
	SELECT "id" FROM "organizations" o WHERE o."realm" = "realms"."name" AND o."parent_id" IS NULL
	ORDER BY o."created_at", o."id" LIMIT 1
);
