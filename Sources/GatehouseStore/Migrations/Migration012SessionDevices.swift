extension Migration {
    /// A user's list of sessions: each session's `User-Agent` and the client's coarse address (an IPv4
    /// /24 or an IPv6 /48, never the full address), written when it starts and on each refresh, and
    /// when it was last refreshed. Sessions from before have none of them (the list says "unknown").
    static let sessionDevices = Migration(
        version: 12,
        name: "session devices",
        statements: [
            "ALTER TABLE gh_sessions ADD COLUMN user_agent TEXT",
            "ALTER TABLE gh_sessions ADD COLUMN client_address TEXT",
            "ALTER TABLE gh_sessions ADD COLUMN refreshed_at BIGINT",
        ]
    )
}
