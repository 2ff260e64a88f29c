extension Migration {
    /// Users, identities, sessions and refresh tokens, codes, profiles, rate limits, settings, signing keys.
    static let initialSchema = Migration(
        version: 1,
        name: "initial schema",
        statements: [
            """
            CREATE TABLE gh_users (
                id TEXT PRIMARY KEY,
                email TEXT,
                email_key TEXT UNIQUE,
                email_verified BOOLEAN NOT NULL,
                password_hash TEXT,
                confirmed BOOLEAN NOT NULL,
                name TEXT,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE gh_identities (
                provider TEXT NOT NULL,
                provider_subject TEXT NOT NULL,
                user_id TEXT NOT NULL,
                email TEXT,
                email_verified BOOLEAN NOT NULL,
                linked_at BIGINT NOT NULL,
                PRIMARY KEY (provider, provider_subject)
            )
            """,
            "CREATE INDEX gh_identities_user ON gh_identities (user_id)",
            """
            CREATE TABLE gh_sessions (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL,
                method TEXT NOT NULL,
                auth_time BIGINT NOT NULL,
                created_at BIGINT NOT NULL,
                revoked_at BIGINT,
                revoked_reason TEXT
            )
            """,
            "CREATE INDEX gh_sessions_user ON gh_sessions (user_id)",
            """
            CREATE TABLE gh_refresh_tokens (
                token_hash TEXT PRIMARY KEY,
                session_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                rotated_at BIGINT,
                successor_hash TEXT
            )
            """,
            "CREATE INDEX gh_refresh_tokens_session ON gh_refresh_tokens (session_id)",
            "CREATE INDEX gh_refresh_tokens_user ON gh_refresh_tokens (user_id)",
            """
            CREATE TABLE gh_codes (
                user_id TEXT NOT NULL,
                purpose TEXT NOT NULL,
                code_hash TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (user_id, purpose)
            )
            """,
            """
            CREATE TABLE gh_profiles (
                sub TEXT PRIMARY KEY,
                email TEXT,
                email_verified BOOLEAN NOT NULL,
                full_name TEXT,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE gh_rate_limits (
                bucket TEXT PRIMARY KEY,
                count INTEGER NOT NULL,
                window_start BIGINT NOT NULL,
                blocked_until BIGINT
            )
            """,
            """
            CREATE TABLE gh_settings (
                key TEXT PRIMARY KEY,
                value TEXT NOT NULL
            )
            """,
            """
            CREATE TABLE gh_signing_keys (
                kid TEXT PRIMARY KEY,
                use TEXT NOT NULL,
                sealed_private_key TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                retired_at BIGINT,
                expires_at BIGINT
            )
            """,
            "CREATE UNIQUE INDEX gh_signing_keys_active ON gh_signing_keys (use) WHERE retired_at IS NULL",
        ]
    )
}
