extension Migration {
    /// Phone sign-in: a user's verified number (unique across the pool, found by it at sign-in), the
    /// profile's copy of it, and the delivery queue's channel (`mail` or `sms`), so SMS go through the
    /// same durable queue as mail.
    static let phoneNumbers = Migration(
        version: 6,
        name: "phone numbers",
        statements: [
            "ALTER TABLE gh_users ADD COLUMN phone TEXT",
            "CREATE UNIQUE INDEX gh_users_phone ON gh_users (phone)",
            "ALTER TABLE gh_profiles ADD COLUMN phone TEXT",
            "ALTER TABLE gh_profiles ADD COLUMN phone_verified BOOLEAN NOT NULL DEFAULT FALSE",
            "ALTER TABLE gh_mail_queue ADD COLUMN channel TEXT NOT NULL DEFAULT 'mail'",
        ]
    )
}
