extension Migration {
    /// A pending change of a user's email address: the code mailed to the new address is an ordinary
    /// one-time code (purpose `change_email`, a keyed hash bound to the new address, five tries, an
    /// expiry) whose row also holds the address it was mailed to. One row per user and purpose, so a
    /// later request replaces the earlier one whole: a code and its address never come apart.
    static let emailChange = Migration(
        version: 13,
        name: "email change",
        statements: [
            "ALTER TABLE gh_codes ADD COLUMN address TEXT"
        ]
    )
}
