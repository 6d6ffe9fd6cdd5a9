ALTER TABLE `workspaces` ADD `deleted_at` text;--> statement-breakpoint
CREATE INDEX `workspaces_deleting_idx` ON `workspaces` (`updated_at`) WHERE deleted_at IS NOT NULL;