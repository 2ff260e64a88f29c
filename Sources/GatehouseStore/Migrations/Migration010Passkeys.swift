extension Migration {
    /// Passkeys (WebAuthn credentials): the COSE public key, the signature counter and what the
    /// authenticator said about syncing; `flagged_at` marks one whose counter went backwards.
    static let passkeys = Migration(
        version: 10,
        name: "Passkeys",
        statements: [
            """
            CREATE TABLE gh_passkeys (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL,
                public_key TEXT NOT NULL,
                sign_count BIGINT NOT NULL,
                transports TEXT NOT NULL,
                backup_eligible BOOLEAN NOT NULL,
                backed_up BOOLEAN NOT NULL,
                name TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                last_used_at BIGINT,
                flagged_at BIGINT
            )
            """,
            "CREATE INDEX gh_passkeys_user ON gh_passkeys (user_id)",
        ]
    )
}
