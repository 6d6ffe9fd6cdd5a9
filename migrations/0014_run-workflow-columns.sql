-- Workflow runs name their rulebook in their own column; the profile columns become null
-- for them. SQLite relaxes NOT NULL only by rebuilding the table. D1 runs a migration in one
-- transaction where foreign_keys cannot be switched off, so the foreign keys of answers,
-- snapshots, reports and findings that point at runs are deferred to the commit instead,
-- when every run they name exists again under the same id.
PRAGMA defer_foreign_keys = on;--> statement-breakpoint
CREATE TABLE `__new_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`kind` text NOT NULL,
	`status` text NOT NULL,
	`sub_state` text NOT NULL,
	`source_ids` text NOT NULL,
	`execution_profile_ref` text NOT NULL,
	`locale` text NOT NULL,
	`profile_id` text,
	`profile_version` integer,
	`report_template_id` text,
	`report_template_version` integer,
	`formats` text NOT NULL,
	`profile_snapshot_id` text NOT NULL,
	`input_snapshot_id` text NOT NULL,
	`output_snapshot_id` text,
	`cancel_requested` integer DEFAULT false NOT NULL,
	`result_state` text,
	`reason_code` text,
	`limitations` text NOT NULL,
	`error` text,
	`usage` text,
	`engine` text,
	`workflow_id` text,
	`rulebook_id` text,
	`rule_set_version_id` text,
	`summary` text,
	`report_id` text,
	`request_id` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_runs`("id", "workspace_id", "kind", "status", "sub_state", "source_ids", "execution_profile_ref", "locale", "profile_id", "profile_version", "report_template_id", "report_template_version", "formats", "profile_snapshot_id", "input_snapshot_id", "output_snapshot_id", "cancel_requested", "result_state", "reason_code", "limitations", "error", "usage", "engine", "workflow_id", "rulebook_id", "rule_set_version_id", "summary", "report_id", "request_id", "created_at", "updated_at") SELECT "id", "workspace_id", "kind", "status", "sub_state", "source_ids", "execution_profile_ref", "locale", CASE WHEN "kind" = 'workflow' THEN NULL ELSE "profile_id" END, CASE WHEN "kind" = 'workflow' THEN NULL ELSE "profile_version" END, "report_template_id", "report_template_version", "formats", "profile_snapshot_id", "input_snapshot_id", "output_snapshot_id", "cancel_requested", "result_state", "reason_code", "limitations", "error", "usage", "engine", "workflow_id", CASE WHEN "kind" = 'workflow' THEN "profile_id" END, "rule_set_version_id", "summary", "report_id", "request_id", "created_at", "updated_at" FROM `runs`;--> statement-breakpoint
DROP TABLE `runs`;--> statement-breakpoint
ALTER TABLE `__new_runs` RENAME TO `runs`;--> statement-breakpoint
PRAGMA defer_foreign_keys = off;--> statement-breakpoint
CREATE INDEX `runs_workspace_idx` ON `runs` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `runs_workspace_status_idx` ON `runs` (`workspace_id`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `runs_status_updated_idx` ON `runs` (`status`,`updated_at`);