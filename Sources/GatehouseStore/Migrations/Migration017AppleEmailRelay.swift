extension Migration {
    /// Apple's private email relay, on the Apple identity (the address it describes is the one Apple
    /// asserted for that Apple ID, which may differ from the account's current address):
    /// `is_private_email` (Apple's claim, written on each sign-in that carries an address),
    /// `email_forwarding` (false after Apple's `email-disabled`, true after `email-enabled`) and
    /// `email_forwarding_at` (the event time of the notification that set it, so an older notification
    /// arriving late cannot undo a newer one). All three are null on older rows and for other providers:
    /// unknown, read as "not known to be a relay" and "forwarding on".
    /// The partial index finds the few relay addresses whose forwarding is off (the mail path's check).
    static let appleEmailRelay = Migration(
        version: 17,
        name: "Apple email relay",
        statements: [
            "ALTER TABLE gh_identities ADD COLUMN is_private_email BOOLEAN",
            "ALTER TABLE gh_identities ADD COLUMN email_forwarding BOOLEAN",
            "ALTER TABLE gh_identities ADD COLUMN email_forwarding_at BIGINT",
            "CREATE INDEX gh_identities_forwarding_off ON gh_identities (lower(email)) WHERE email_forwarding = FALSE",
        ]
    )
}
