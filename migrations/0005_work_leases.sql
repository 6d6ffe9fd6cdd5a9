CREATE TABLE `work_leases` (
	`subject_id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`active_from` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `work_leases_kind_active_idx` ON `work_leases` (`kind`,`active_from`);