import Foundation

/// A page of the audit log, newest first: every filter is an exact match or a range on an indexed column.
public struct AuditQuery: Sendable, Equatable {
    /// The largest page.
    public static let maximumLimit = 500

    /// Only rows about this user.
    public var userID: String?
    /// Only rows of this event.
    public var event: AuditEvent?
    /// Only rows at or after this time.
    public var since: Date?
    /// Only rows before this time.
    public var until: Date?
    /// Only rows older than this entry id (the previous page's last id).
    public var before: String?
    /// At most this many rows (1 ... ``maximumLimit``).
    public var limit: Int

    /// A query.
    /// - Parameters:
    ///   - userID: Only rows about this user.
    ///   - event: Only rows of this event.
    ///   - since: Only rows at or after this time.
    ///   - until: Only rows before this time.
    ///   - before: The previous page's last entry id.
    ///   - limit: The page size, clamped to 1 ... ``maximumLimit``.
    public init(userID: String? = nil, event: AuditEvent? = nil, since: Date? = nil, until: Date? = nil, before: String? = nil, limit: Int = 100) {
        self.userID = userID
        self.event = event
        self.since = since
        self.until = until
        self.before = before
        self.limit = min(max(limit, 1), Self.maximumLimit)
    }
}
