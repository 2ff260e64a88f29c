extension Migration {
    /// Cognito's SRP sign-in (`USER_SRP_AUTH`): each user's verifier of the current password, sealed
    /// under the master key with the password hash it was made from as associated data (a password
    /// changed by an older instance during a rolling upgrade leaves a verifier that no longer opens),
    /// and the secret blocks already answered, so each is accepted once.
    static let srpVerifiers = Migration(
        version: 9,
        name: "SRP verifiers",
        statements: [
            "ALTER TABLE gh_users ADD COLUMN srp_salt TEXT",
            "ALTER TABLE gh_users ADD COLUMN srp_verifier TEXT",
            "CREATE TABLE gh_srp_challenges (id TEXT PRIMARY KEY, expires_at BIGINT NOT NULL)",
        ]
    )
}
