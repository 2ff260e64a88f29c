extension Migration {
    /// Apple's server-to-server notifications: each event (a hash of its type, subject and time)
    /// handled once; rows are pruned by the maintenance job once a replay would be stale anyway.
    static let appleNotifications = Migration(
        version: 16,
        name: "Apple notifications",
        statements: [
            """
            CREATE TABLE gh_apple_notifications (
                event_hash TEXT PRIMARY KEY,
                event_type TEXT NOT NULL,
                handled_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX gh_apple_notifications_expiry ON gh_apple_notifications (expires_at)",
        ]
    )
}
