extension Migration {
    /// For an identity provider that keeps the users elsewhere (Cognito): per-subject revocation
    /// cut-offs and deletion tombstones, and short leases that serialise work on one user across instances.
    static let externalSubjects = Migration(
        version: 3,
        name: "external subjects and leases",
        statements: [
            """
            CREATE TABLE gh_subject_revocations (
                sub TEXT PRIMARY KEY,
                revoked_before BIGINT NOT NULL,
                deleted_at BIGINT
            )
            """,
            """
            CREATE TABLE gh_leases (
                name TEXT PRIMARY KEY,
                holder TEXT NOT NULL,
                expires_at BIGINT NOT NULL
            )
            """,
        ]
    )
}
