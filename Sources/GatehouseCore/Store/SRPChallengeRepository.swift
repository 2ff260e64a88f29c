import Foundation

/// The SRP secret blocks already answered, so each one is accepted once, on any instance.
public protocol SRPChallengeRepository: Sendable {
    /// Records that the challenge `id` was answered.
    /// - Parameters:
    ///   - id: The challenge's id (from its sealed secret block).
    ///   - expiresAt: When the block stops being accepted anyway (the row may be purged after).
    /// - Returns: `false` when it was answered before.
    func claimSRPChallenge(id: String, expiresAt: Date) async throws -> Bool
}
