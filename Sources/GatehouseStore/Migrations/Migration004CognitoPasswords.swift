extension Migration {
    /// The random password Gatehouse keeps for each Cognito user it signs in by a provider identity
    /// (sealed under the master key), so that a social sign-in reuses it instead of resetting the
    /// user's password every time.
    static let cognitoPasswords = Migration(
        version: 4,
        name: "cognito passwords",
        statements: [
            """
            CREATE TABLE gh_cognito_passwords (
                sub TEXT PRIMARY KEY,
                sealed_password TEXT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """
        ]
    )
}
