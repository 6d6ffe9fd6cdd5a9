ALTER TABLE `workspaces` ADD `retention_days` integer;--> statement-breakpoint
CREATE INDEX `workspaces_retention_idx` ON `workspaces` (`id`) WHERE "workspaces"."retention_days" is not null;--> statement-breakpoint
CREATE INDEX `videos_workspace_created_idx` ON `videos` (`workspace_id`,`created_at`) WHERE "videos"."status" <> 'deleted';