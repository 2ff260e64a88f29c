/// Decides whether a webhook URL's host may be called: the server's implementation resolves it and
/// refuses private, loopback, link-local and other non-public addresses (unless the operator allows
/// them), at add time and again before every send.
public protocol WebhookAddressPolicy: Sendable {
    /// Checks `host`.
    /// - Parameter host: The URL's host (a name or an address literal, without brackets).
    /// - Throws: ``GatehouseError`` `invalid_request` naming why, when it may not be called.
    func check(host: String) async throws
}
