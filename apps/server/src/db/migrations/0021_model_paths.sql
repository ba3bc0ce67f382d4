CREATE TABLE "model_paths" (
	"organization_id" uuid NOT NULL,
	"path" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "model_paths_organization_id_path_pk" PRIMARY KEY("organization_id","path")
);
--> statement-breakpoint
ALTER TABLE "model_paths" ADD CONSTRAINT "model_paths_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;