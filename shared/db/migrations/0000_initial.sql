CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text(64) NOT NULL,
	`key_prefix` text(12) NOT NULL,
	`key_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_key_hash_unique` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_user_idx` ON `api_keys` (`user_id`);--> statement-breakpoint
CREATE TABLE `bot_grants` (
	`user_id` text NOT NULL,
	`bot_id` text NOT NULL,
	PRIMARY KEY(`user_id`, `bot_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`bot_id`) REFERENCES `bots`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `bot_grants_bot_idx` ON `bot_grants` (`bot_id`);--> statement-breakpoint
CREATE TABLE `rate_limits` (
	`key` text PRIMARY KEY NOT NULL,
	`window_start` integer NOT NULL,
	`count` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`username` text(64) NOT NULL,
	`password_hash` text,
	`role` text NOT NULL,
	`capabilities` text DEFAULT '[]' NOT NULL,
	`all_bots` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_uq` ON `users` (lower("username"));--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`timestamp` integer NOT NULL,
	`actor_id` text,
	`actor_username` text,
	`target_user_id` text,
	`target_username` text,
	`action` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_log_timestamp_idx` ON `audit_log` (`timestamp`);--> statement-breakpoint
CREATE TABLE `bots` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`server_address` text NOT NULL,
	`server_port` integer DEFAULT 9987 NOT NULL,
	`nickname` text NOT NULL,
	`default_channel` text,
	`channel_id` text,
	`channel_password` text,
	`server_password` text,
	`auto_start` integer DEFAULT false NOT NULL,
	`identity` text,
	`query_key` text,
	`volume` integer DEFAULT 50 NOT NULL,
	`play_mode` text DEFAULT 'seq' NOT NULL,
	`profile_config` text,
	`avatar_path` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `play_history` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`bot_id` text NOT NULL,
	`song_id` text NOT NULL,
	`name` text NOT NULL,
	`artist` text NOT NULL,
	`album` text NOT NULL,
	`cover_url` text NOT NULL,
	`platform` text NOT NULL,
	`played_at` integer NOT NULL,
	`requested_by` text,
	FOREIGN KEY (`bot_id`) REFERENCES `bots`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `play_history_bot_played_idx` ON `play_history` (`bot_id`,`played_at`);--> statement-breakpoint
CREATE TABLE `queue_snapshots` (
	`bot_id` text PRIMARY KEY NOT NULL,
	`songs` text NOT NULL,
	`current_index` integer NOT NULL,
	`position_seconds` integer DEFAULT 0 NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`bot_id`) REFERENCES `bots`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `favorites` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`platform` text NOT NULL,
	`playlist_id` text NOT NULL,
	`name` text NOT NULL,
	`cover_url` text DEFAULT '' NOT NULL,
	`song_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `favorites_user_playlist_uq` ON `favorites` (`user_id`,`platform`,`playlist_id`);--> statement-breakpoint
CREATE TABLE `personal_links` (
	`user_id` text NOT NULL,
	`platform` text NOT NULL,
	`credential` text NOT NULL,
	`nickname` text,
	`avatar_url` text,
	`linked_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `platform`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `platform_accounts` (
	`platform` text PRIMARY KEY NOT NULL,
	`credential` text NOT NULL,
	`nickname` text,
	`avatar_url` text,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `qr_logins` (
	`key` text PRIMARY KEY NOT NULL,
	`platform` text NOT NULL,
	`user_id` text,
	`status` text NOT NULL,
	`state` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `qr_logins_created_idx` ON `qr_logins` (`created_at`);--> statement-breakpoint
CREATE TABLE `saved_queues` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`name` text NOT NULL,
	`songs` text NOT NULL,
	`song_count` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `saved_queues_owner_name_uq` ON `saved_queues` (`owner_id`,`name`);--> statement-breakpoint
CREATE TABLE `uploads` (
	`id` text PRIMARY KEY NOT NULL,
	`original_name` text NOT NULL,
	`stored_name` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`duration_seconds` integer DEFAULT 0 NOT NULL,
	`uploaded_by` text,
	`created_at` integer NOT NULL,
	`played_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `uploads_stored_name_unique` ON `uploads` (`stored_name`);--> statement-breakpoint
CREATE TABLE `settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` integer NOT NULL
);
