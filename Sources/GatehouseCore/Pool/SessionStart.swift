import Foundation

extension EmbeddedUserPool {
    /// A session's identifiers and first refresh token, drawn before its transaction (so a retried
    /// transaction records the same ones); see ``EmbeddedUserPool/prepareSession(method:)``.
    struct SessionStart: Sendable {
        let sessionID: String
        let method: String
        let refreshToken: String
        let refreshTokenHash: String
        let at: Date
        /// Who signed in from where: read when the start is prepared, outside the write it goes into.
        let origin: AuditOrigin
    }
}
