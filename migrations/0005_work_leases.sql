CREATE TABLE `work_leases` (
	`subject_id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`due_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `work_leases_kind_due_idx` ON `work_leases` (`kind`,`due_at`);