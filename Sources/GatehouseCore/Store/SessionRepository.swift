import Foundation

/// Sessions and the refresh-token rotation chains inside them. Refresh tokens are stored only as
/// hashes, and ending a session is what makes its access and refresh tokens stop counting.
public protocol SessionRepository: Sendable {
    func insertSession(_ session: SessionRecord) async throws
    func session(id: String) async throws -> SessionRecord?
    /// Ends one session; `false` if it was already ended or does not exist.
    @discardableResult
    func revokeSession(id: String, at: Date, reason: SessionRecord.EndReason) async throws -> Bool
    /// Ends every active session of a user except `except`; returns the ids it ended.
    @discardableResult
    func revokeSessions(userID: String, except: String?, at: Date, reason: SessionRecord.EndReason) async throws -> [String]
    /// Ids of the user's sessions that are still active.
    func activeSessionIDs(userID: String) async throws -> [String]
    /// The user's sessions that are not ended, oldest first (their user agent, coarse address and last refresh included).
    func activeSessions(userID: String) async throws -> [SessionRecord]
    /// Notes that the session's refresh token was exchanged at `at`, by a client with this `User-Agent` and
    /// coarse address; a `nil` keeps the value stored.
    func recordRefresh(sessionID: String, at: Date, userAgent: String?, clientAddress: String?) async throws
    /// Removes sessions and their refresh tokens (account deletion).
    func deleteSessions(userID: String) async throws

    func insertRefreshToken(_ token: RefreshTokenRecord) async throws
    func refreshToken(hash: String) async throws -> RefreshTokenRecord?
    /// Marks `hash` rotated to `successorHash` only if it is not rotated yet (compare-and-set);
    /// `false` when another request rotated it first.
    func markRefreshTokenRotated(hash: String, successorHash: String, at: Date) async throws -> Bool
}
