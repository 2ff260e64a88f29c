import Foundation

/// Social sign-in state: Apple tokens to revoke, the revocation queue, web-flow states, hand-off codes.
public protocol SocialRepository: Sendable {
    func upsertAppleToken(_ token: AppleTokenRecord) async throws
    func appleTokens(userID: String) async throws -> [AppleTokenRecord]
    func deleteAppleTokens(userID: String) async throws

    func enqueueRevocation(_ revocation: AppleRevocationRecord) async throws
    /// Unfinished revocations whose next attempt is due.
    func dueRevocations(now: Date, limit: Int) async throws -> [AppleRevocationRecord]
    /// Claims due revocations for one instance: their next attempt moves to `leaseUntil` (so no other
    /// instance takes them meanwhile, and they come due again if this one dies), `SKIP LOCKED` on PostgreSQL.
    func claimDueRevocations(now: Date, leaseUntil: Date, limit: Int) async throws -> [AppleRevocationRecord]
    func revocation(id: String) async throws -> AppleRevocationRecord?
    func updateRevocation(_ revocation: AppleRevocationRecord) async throws

    /// Records that the sealed web-flow `state` with this hash came back, and says whether this was its
    /// first use. Atomic across instances: of any number of concurrent calls with one hash, exactly one
    /// returns `true`. The row is kept until `expiresAt` (``GatehouseStore/purgeExpired(now:)``).
    func recordAuthorizationStateUse(hash: String, codeChallenge: String, expiresAt: Date, at: Date) async throws -> Bool

    func insertHandoff(_ handoff: HandoffRecord) async throws
    /// Removes the hand-off code and returns it, unless it is unknown or was redeemed already.
    func consumeHandoff(hash: String, at: Date) async throws -> HandoffRecord?
}
