-- The synthetic guest principal that guest sessions belong to (SPEC.md "User"). It has no password,
-- so it can never log in; /api/users answers 404 for its id. Guest capabilities come from settings.
INSERT OR IGNORE INTO `users` (`id`, `username`, `password_hash`, `role`, `capabilities`, `all_bots`, `created_at`)
VALUES ('guest', 'guest', NULL, 'guest', '[]', 0, CAST(strftime('%s', 'now') AS INTEGER) * 1000);
