-- The full-text index matches the workspace as well as the words: `workspace_id` becomes an
-- indexed column and keyword retrieval asks for `workspace_id : "<id>" AND body : (...)`.
-- Before, a workspace's keyword query walked every matching segment of every workspace of
-- the database and dropped the others' after reading each one's row, so a small workspace
-- beside a large one paid for the large one (210 ms a search in the scale bench). Queries
-- now name the `body` column, so words never match a workspace id; BM25 weighs `body` only
-- (the `rank` setting), so ranked order is what it was.
DROP TABLE `segment_search`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `segment_search` USING fts5(
	`body`,
	`segment_id` UNINDEXED,
	`workspace_id`,
	`video_id` UNINDEXED,
	content = 'segment_text',
	content_rowid = 'id',
	tokenize = 'porter unicode61 remove_diacritics 2'
);
--> statement-breakpoint
INSERT INTO `segment_search` (`segment_search`, `rank`) VALUES ('rank', 'bm25(1.0, 0.0, 0.0, 0.0)');
--> statement-breakpoint
INSERT INTO `segment_search` (`segment_search`) VALUES ('rebuild');
