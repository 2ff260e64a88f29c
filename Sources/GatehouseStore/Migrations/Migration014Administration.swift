extension Migration {
    /// Operators: the audit log (written in the transaction of each change it records), admin API keys
    /// (their SHA-256, a name unique among live keys), a user's disabled state, and the index the admin
    /// API lists users by (creation time, then sub).
    static let administration = Migration(
        version: 14,
        name: "Administration",
        statements: [
            """
            CREATE TABLE gh_audit_log (
                id TEXT PRIMARY KEY,
                at_ms BIGINT NOT NULL,
                event TEXT NOT NULL,
                user_id TEXT,
                actor TEXT NOT NULL,
                detail TEXT,
                client_address TEXT,
                user_agent TEXT,
                request_id TEXT
            )
            """,
            "CREATE INDEX gh_audit_log_user ON gh_audit_log (user_id, id)",
            "CREATE INDEX gh_audit_log_event ON gh_audit_log (event, id)",
            "CREATE INDEX gh_audit_log_at ON gh_audit_log (at_ms)",
            """
            CREATE TABLE gh_admin_keys (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                key_hash TEXT NOT NULL UNIQUE,
                created_at BIGINT NOT NULL,
                last_used_at BIGINT,
                revoked_at BIGINT
            )
            """,
            "CREATE UNIQUE INDEX gh_admin_keys_live_name ON gh_admin_keys (name) WHERE revoked_at IS NULL",
            "ALTER TABLE gh_users ADD COLUMN disabled_at BIGINT",
            "CREATE INDEX gh_users_created ON gh_users (created_at, id)",
        ]
    )
}
