import Foundation

/// A page of users for the admin API, oldest first: each filter is an exact match on an indexed column
/// (the normalised address, the E.164 number, the sub) or a range on the creation time, so no input can
/// turn a search into a pattern or a full-table scan.
public struct UserQuery: Sendable, Equatable {
    /// The largest page.
    public static let maximumLimit = 200

    /// Only the user with this normalised address (``EmailAddress/key``).
    public var emailKey: String?
    /// Only the user with this E.164 number.
    public var phone: String?
    /// Only the user with this sub.
    public var sub: String?
    /// Only users created at or after this time.
    public var createdFrom: Date?
    /// Only users created before this time.
    public var createdBefore: Date?
    /// Only users after this position (the previous page's last user's creation time and sub).
    public var after: UserCursor?
    /// At most this many users (1 ... ``maximumLimit``).
    public var limit: Int

    /// A query.
    /// - Parameters:
    ///   - emailKey: The normalised address.
    ///   - phone: The E.164 number.
    ///   - sub: The sub.
    ///   - createdFrom: The earliest creation time.
    ///   - createdBefore: The creation time before which users are listed.
    ///   - after: The previous page's position.
    ///   - limit: The page size, clamped to 1 ... ``maximumLimit``.
    public init(
        emailKey: String? = nil,
        phone: String? = nil,
        sub: String? = nil,
        createdFrom: Date? = nil,
        createdBefore: Date? = nil,
        after: UserCursor? = nil,
        limit: Int = 50
    ) {
        self.emailKey = emailKey
        self.phone = phone
        self.sub = sub
        self.createdFrom = createdFrom
        self.createdBefore = createdBefore
        self.after = after
        self.limit = min(max(limit, 1), Self.maximumLimit)
    }
}
