CREATE TABLE `events` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`type` text NOT NULL,
	`data` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `events_workspace_idx` ON `events` (`workspace_id`,`id`);--> statement-breakpoint
CREATE TABLE `video_segments` (
	`id` text PRIMARY KEY NOT NULL,
	`video_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`position` integer NOT NULL,
	`start_time` real NOT NULL,
	`end_time` real NOT NULL,
	`scene_description` text NOT NULL,
	`transcript` text NOT NULL,
	`tags` text NOT NULL,
	`evidence` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`video_id`) REFERENCES `videos`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `video_segments_video_idx` ON `video_segments` (`video_id`,`position`);--> statement-breakpoint
CREATE INDEX `video_segments_workspace_idx` ON `video_segments` (`workspace_id`,`video_id`);