CREATE TABLE `usage_daily` (
	`workspace_id` text NOT NULL,
	`day` text NOT NULL,
	`metric` text NOT NULL,
	`key` text DEFAULT '' NOT NULL,
	`value` real DEFAULT 0 NOT NULL,
	PRIMARY KEY(`workspace_id`, `day`, `metric`, `key`),
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `video_usage` (
	`video_id` text NOT NULL,
	`metric` text NOT NULL,
	`key` text DEFAULT '' NOT NULL,
	`value` real DEFAULT 0 NOT NULL,
	PRIMARY KEY(`video_id`, `metric`, `key`),
	FOREIGN KEY (`video_id`) REFERENCES `videos`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `videos` ADD `uploaded_at` text;--> statement-breakpoint
-- Videos uploaded before usage was counted: their sources count as stored from the day they were created.
UPDATE `videos` SET `uploaded_at` = `created_at` WHERE `status` IN ('processing', 'completed') OR (`status` = 'failed' AND coalesce(json_extract(`error`, '$.code'), '') NOT IN ('upload-aborted', 'upload-expired'));--> statement-breakpoint
INSERT INTO `usage_daily` (`workspace_id`, `day`, `metric`, `key`, `value`) SELECT `workspace_id`, substr(`created_at`, 1, 10), 'bytes_added', '', sum(`file_size`) FROM `videos` WHERE `uploaded_at` IS NOT NULL GROUP BY `workspace_id`, substr(`created_at`, 1, 10);--> statement-breakpoint
INSERT INTO `usage_daily` (`workspace_id`, `day`, `metric`, `key`, `value`) SELECT `workspace_id`, substr(`created_at`, 1, 10), 'videos_uploaded', '', count(*) FROM `videos` WHERE `uploaded_at` IS NOT NULL GROUP BY `workspace_id`, substr(`created_at`, 1, 10);
