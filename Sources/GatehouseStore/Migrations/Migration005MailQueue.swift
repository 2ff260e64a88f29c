extension Migration {
    /// The durable mail queue: a request inserts its message in the transaction that writes the code
    /// it carries, and the delivery service claims, sends and retries it (see ``MessageQueueRepository``).
    static let mailQueue = Migration(
        version: 5,
        name: "mail queue",
        statements: [
            """
            CREATE TABLE gh_mail_queue (
                id TEXT PRIMARY KEY,
                kind TEXT NOT NULL,
                state TEXT NOT NULL,
                sealed_request TEXT,
                attempts INTEGER NOT NULL,
                next_attempt_at BIGINT NOT NULL,
                lease TEXT,
                lease_until BIGINT,
                last_error TEXT,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX gh_mail_queue_due ON gh_mail_queue (state, next_attempt_at)",
        ]
    )
}
