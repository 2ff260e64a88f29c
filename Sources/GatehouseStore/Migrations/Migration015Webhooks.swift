extension Migration {
    /// Webhooks: the endpoints operators registered (URL, subscribed events as a comma list, the signing
    /// secret sealed under the master key, removal time). Their deliveries ride the durable queue
    /// (`gh_mail_queue`, channel `webhook`).
    static let webhooks = Migration(
        version: 15,
        name: "Webhooks",
        statements: [
            """
            CREATE TABLE gh_webhook_endpoints (
                id TEXT PRIMARY KEY,
                url TEXT NOT NULL,
                events TEXT NOT NULL,
                sealed_secret TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                disabled_at BIGINT
            )
            """
        ]
    )
}
