import Foundation

/// A session's identifiers and first refresh token, drawn before its transaction (so a retried
/// transaction records the same ones); see ``SessionIssuer/prepare(method:client:)``.
struct SessionStart: Sendable {
    let sessionID: String
    let method: String
    let refreshToken: String
    let refreshTokenHash: String
    let at: Date
    /// The `User-Agent` of the request that signs in, kept for the user's session list.
    let userAgent: String?
    /// The signing-in client's address made coarse (``ClientInfo/coarseAddress``).
    let clientAddress: String?
    /// Who signed in from where: read when the start is prepared, outside the write it goes into.
    let origin: AuditOrigin
}
