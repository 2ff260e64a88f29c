import Foundation

/// An ``SRPClaim`` whose secret block opened: the server's state from the challenge, and the client's proof.
public struct OpenedSRPClaim: Sendable {
    /// The challenge's id (each is accepted once).
    let id: String
    /// The user's `sub`, or empty for a decoy.
    let userID: String
    /// The case-folded address the sign-in started with (the account's throttle key).
    public let emailKey: String
    let publicA: String
    let publicB: [UInt8]
    let privateB: [UInt8]
    let salt: String
    let userIDForSRP: String
    let expiresAt: Date
    let secretBlock: [UInt8]
    let claim: SRPClaim
}
