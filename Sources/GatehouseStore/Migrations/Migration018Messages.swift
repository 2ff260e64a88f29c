extension Migration {
    /// The delivery queue named for what it holds: `gh_mail_queue` (mail, SMS and webhooks, one channel
    /// each) becomes `gh_messages`, and bodies are sealed under `message:<id>` instead of `mail:<id>`.
    /// `sealing_context` says which: rows queued before the upgrade read `mail`, and this version opens
    /// each row under its own context and writes `message`.
    ///
    /// A rolling upgrade on PostgreSQL: an older instance still reads and writes `gh_mail_queue`, now a
    /// view over `gh_messages` that shows only rows sealed under `mail:` (PostgreSQL updates a one-table
    /// view in place, `FOR UPDATE SKIP LOCKED` included, and fills `sealing_context` with its default
    /// `mail` for rows inserted through it). So the older instance keeps delivering what it queues and
    /// never claims a row it could not open; this version delivers both. The view goes in a later
    /// migration, once no older instance can be running. SQLite serves one process, stopped before the
    /// new version starts, so it gets no view.
    static let messages = Migration(
        version: 18,
        name: "messages",
        sqlite: [
            "ALTER TABLE gh_mail_queue RENAME TO gh_messages",
            "DROP INDEX gh_mail_queue_due",
            "CREATE INDEX gh_messages_due ON gh_messages (state, next_attempt_at)",
            "ALTER TABLE gh_messages ADD COLUMN sealing_context TEXT NOT NULL DEFAULT 'mail'",
        ],
        postgres: [
            "ALTER TABLE gh_mail_queue RENAME TO gh_messages",
            "ALTER TABLE gh_messages RENAME CONSTRAINT gh_mail_queue_pkey TO gh_messages_pkey",
            "ALTER INDEX gh_mail_queue_due RENAME TO gh_messages_due",
            "ALTER TABLE gh_messages ADD COLUMN sealing_context TEXT NOT NULL DEFAULT 'mail'",
            """
            CREATE VIEW gh_mail_queue AS
                SELECT id, kind, state, sealed_request, attempts, next_attempt_at, lease, lease_until, last_error, created_at, updated_at, channel
                FROM gh_messages WHERE sealing_context = 'mail'
            """,
        ]
    )
}
