CREATE TABLE `answers` (
	`id` text PRIMARY KEY NOT NULL,
	`run_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`position` integer NOT NULL,
	`key` text NOT NULL,
	`type` text NOT NULL,
	`result_state` text NOT NULL,
	`coverage` text NOT NULL,
	`event_count` integer NOT NULL,
	`evidence_count` integer NOT NULL,
	`payload` text NOT NULL,
	`reason_code` text,
	`provenance` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `answers_run_key_idx` ON `answers` (`run_id`,`key`);--> statement-breakpoint
CREATE INDEX `answers_run_idx` ON `answers` (`run_id`,`position`);--> statement-breakpoint
CREATE TABLE `reports` (
	`id` text PRIMARY KEY NOT NULL,
	`run_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`request_id` text NOT NULL,
	`format` text NOT NULL,
	`content_type` text NOT NULL,
	`object_key` text NOT NULL,
	`content_identity` text NOT NULL,
	`output_identity` text NOT NULL,
	`analysis_profile_ref` text NOT NULL,
	`report_template_ref` text NOT NULL,
	`manifest` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `reports_run_idx` ON `reports` (`run_id`,`id`);--> statement-breakpoint
CREATE TABLE `run_snapshots` (
	`id` text PRIMARY KEY NOT NULL,
	`run_id` text NOT NULL,
	`kind` text NOT NULL,
	`content` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `run_snapshots_run_idx` ON `run_snapshots` (`run_id`);--> statement-breakpoint
CREATE TABLE `runs` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`kind` text NOT NULL,
	`status` text NOT NULL,
	`sub_state` text NOT NULL,
	`source_ids` text NOT NULL,
	`execution_profile_ref` text NOT NULL,
	`locale` text NOT NULL,
	`profile_id` text NOT NULL,
	`profile_version` integer NOT NULL,
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
	`request_id` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `runs_workspace_idx` ON `runs` (`workspace_id`,`id`);--> statement-breakpoint
CREATE INDEX `runs_workspace_status_idx` ON `runs` (`workspace_id`,`status`,`id`);