-- Full-text index of searchable segment text (transcript, tags, evidence), for exact phrase
-- and keyword matches. FTS5 virtual tables are not modelled by drizzle; written by hand.
CREATE VIRTUAL TABLE `segment_search` USING fts5(
	`body`,
	`segment_id` UNINDEXED,
	`workspace_id` UNINDEXED,
	`video_id` UNINDEXED,
	tokenize = 'porter unicode61 remove_diacritics 2'
);
