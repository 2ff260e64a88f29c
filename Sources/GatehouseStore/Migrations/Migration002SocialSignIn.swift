extension Migration {
    /// Apple refresh tokens (sealed), the revocation queue, web-flow states and hand-off codes.
    static let socialSignIn = Migration(
        version: 2,
        name: "social sign-in",
        statements: [
            """
            CREATE TABLE gh_apple_tokens (
                apple_subject TEXT NOT NULL,
                client_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                sealed_refresh_token TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (apple_subject, client_id)
            )
            """,
            "CREATE INDEX gh_apple_tokens_user ON gh_apple_tokens (user_id)",
            """
            CREATE TABLE gh_apple_revocations (
                id TEXT PRIMARY KEY,
                client_id TEXT NOT NULL,
                sealed_refresh_token TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                next_attempt_at BIGINT NOT NULL,
                last_error TEXT,
                completed_at BIGINT
            )
            """,
            "CREATE INDEX gh_apple_revocations_due ON gh_apple_revocations (next_attempt_at) WHERE completed_at IS NULL",
            """
            CREATE TABLE gh_authorization_states (
                state_hash TEXT PRIMARY KEY,
                code_challenge TEXT NOT NULL,
                nonce TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                used_at BIGINT
            )
            """,
            """
            CREATE TABLE gh_handoff_codes (
                code_hash TEXT PRIMARY KEY,
                code_challenge TEXT NOT NULL,
                sealed_tokens TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                used_at BIGINT
            )
            """,
        ]
    )
}
