extension Migration {
    /// Operator flags on the app's user record: `is_superuser`, set with `gatehouse users superuser`
    /// and shown as the seed 003 client's `User.is_superuser`.
    static let operatorFlags = Migration(
        version: 7,
        name: "operator flags",
        statements: [
            "ALTER TABLE gh_profiles ADD COLUMN is_superuser BOOLEAN NOT NULL DEFAULT FALSE"
        ]
    )
}
