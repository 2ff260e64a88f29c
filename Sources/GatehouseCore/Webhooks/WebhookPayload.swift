import Foundation

/// The body a receiver gets: `{"type", "timestamp", "data"}` (Standard Webhooks' shape). `data` holds
/// the user's `sub` and, where the change concerns it, the email address, the sign-in method or the
/// session; never a password, code, token or key.
public struct WebhookPayload: Sendable, Codable, Equatable {
    /// The event.
    public var type: String
    /// When the change happened (RFC 3339, UTC).
    public var timestamp: String
    /// What it concerns.
    public var data: [String: String]

    /// The payload of an audit row.
    /// - Parameters:
    ///   - event: The webhook event.
    ///   - entry: The audit row (the same transaction).
    ///   - email: The user's address, when the caller has it and it belongs in the event.
    public init(event: WebhookEvent, entry: AuditEntry, email: String?) {
        type = event.rawValue
        timestamp = entry.at.formatted(.iso8601)
        var data: [String: String] = [:]
        data["sub"] = entry.userID
        data["email"] = email
        switch entry.event {
        case .signIn: data["method"] = entry.detail
        case .signOut, .refreshReuse, .sessionEnded: data["session_id"] = entry.detail
        default: break
        }
        if event == .sessionRevoked { data["reason"] = entry.event.rawValue }
        data["actor"] = entry.actor.hasPrefix("admin:") ? "admin" : entry.actor
        self.data = data
    }

    /// The JSON sent (keys sorted, so the bytes are the same on every retry).
    /// - Returns: The body.
    /// - Throws: An encoding error.
    public func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self))
    }
}
