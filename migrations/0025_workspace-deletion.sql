ALTER TABLE `workspaces` ADD `deleted_at` text;--> statement-breakpoint
CREATE INDEX `workspaces_deleting_idx` ON `workspaces` (`updated_at`) WHERE deleted_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX `rulebook_csv_imports_workspace_idx` ON `rulebook_csv_imports` (`workspace_id`);--> statement-breakpoint
-- Rule sets and their rules stay immutable, but erasing a deleting workspace removes its own:
-- the delete triggers refuse unless the rulebook's workspace is being deleted.
DROP TRIGGER `rule_set_versions_immutable_delete`;--> statement-breakpoint
CREATE TRIGGER `rule_set_versions_immutable_delete` BEFORE DELETE ON `rule_set_versions`
WHEN NOT EXISTS (
	SELECT 1 FROM `rulebooks` JOIN `workspaces` ON `workspaces`.`id` = `rulebooks`.`workspace_id`
	WHERE `rulebooks`.`id` = OLD.`rulebook_id` AND `workspaces`.`deleted_at` IS NOT NULL
)
BEGIN SELECT RAISE(ABORT, 'rule set versions are immutable'); END;--> statement-breakpoint
DROP TRIGGER `rules_immutable_delete`;--> statement-breakpoint
CREATE TRIGGER `rules_immutable_delete` BEFORE DELETE ON `rules`
WHEN NOT EXISTS (
	SELECT 1 FROM `rule_set_versions`
	JOIN `rulebooks` ON `rulebooks`.`id` = `rule_set_versions`.`rulebook_id`
	JOIN `workspaces` ON `workspaces`.`id` = `rulebooks`.`workspace_id`
	WHERE `rule_set_versions`.`id` = OLD.`rule_set_version_id` AND `workspaces`.`deleted_at` IS NOT NULL
)
BEGIN SELECT RAISE(ABORT, 'rules of a rule set version are immutable'); END;
