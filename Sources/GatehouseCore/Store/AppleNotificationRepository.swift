import Foundation

/// Apple's server-to-server notifications already handled, and the changes they make.
public protocol AppleNotificationRepository: Sendable {
    /// Records that the event with this hash is being handled, and says whether this is its first time.
    /// Atomic across instances: of any number of concurrent calls with one hash, exactly one returns
    /// `true`. The row is kept until `expiresAt` (``GatehouseStore/purgeExpired(now:)``).
    func recordAppleNotification(hash: String, type: String, expiresAt: Date, at: Date) async throws -> Bool
    /// Removes one provider identity (an unlinked Apple ID).
    func deleteIdentity(provider: String, subject: String) async throws
    /// Ends every active session of a user whose method is `method` or starts with `method+`
    /// (`apple`, `apple+otp`); returns the ids it ended.
    func revokeSessions(userID: String, method: String, at: Date, reason: SessionRecord.EndReason) async throws -> [String]
}
