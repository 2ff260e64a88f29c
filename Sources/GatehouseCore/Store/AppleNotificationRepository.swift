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
    /// Sets whether Apple forwards mail to an Apple identity's relay address (and, when the
    /// notification said, whether the address is a relay), unless a notification with a later event
    /// time already set it. Returns whether it changed the row (false: no such identity, or a newer
    /// notification won).
    func setEmailForwarding(appleSubject: String, forwarding: Bool, isPrivateEmail: Bool?, eventTime: Date) async throws -> Bool
    /// Whether `address` (compared without case) is an Apple relay address whose forwarding Apple
    /// reported off: mail sent to it cannot arrive.
    func isRelayForwardingOff(address: String) async throws -> Bool
}
