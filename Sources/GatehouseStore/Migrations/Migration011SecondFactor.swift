extension Migration {
    /// A second factor: each user's authenticator-app secret (sealed), the last time step accepted (so a
    /// code is accepted once), and single-use recovery codes (keyed hashes).
    static let secondFactor = Migration(
        version: 11,
        name: "Second factor",
        statements: [
            """
            CREATE TABLE gh_totp (
                user_id TEXT PRIMARY KEY,
                secret TEXT NOT NULL,
                confirmed_at BIGINT,
                last_step BIGINT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE gh_recovery_codes (
                user_id TEXT NOT NULL,
                code_hash TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                used_at BIGINT,
                PRIMARY KEY (user_id, code_hash)
            )
            """,
        ]
    )
}
