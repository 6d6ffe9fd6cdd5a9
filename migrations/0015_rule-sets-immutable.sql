-- A rule set version and its rules never change once written: workflows and runs name a
-- version by id instead of copying its rules (10,000 of them would not fit one D1 value),
-- so the database itself refuses to change or remove them.
CREATE TRIGGER `rule_set_versions_immutable_update` BEFORE UPDATE ON `rule_set_versions`
BEGIN SELECT RAISE(ABORT, 'rule set versions are immutable'); END;--> statement-breakpoint
CREATE TRIGGER `rule_set_versions_immutable_delete` BEFORE DELETE ON `rule_set_versions`
BEGIN SELECT RAISE(ABORT, 'rule set versions are immutable'); END;--> statement-breakpoint
CREATE TRIGGER `rules_immutable_update` BEFORE UPDATE ON `rules`
BEGIN SELECT RAISE(ABORT, 'rules of a rule set version are immutable'); END;--> statement-breakpoint
CREATE TRIGGER `rules_immutable_delete` BEFORE DELETE ON `rules`
BEGIN SELECT RAISE(ABORT, 'rules of a rule set version are immutable'); END;
