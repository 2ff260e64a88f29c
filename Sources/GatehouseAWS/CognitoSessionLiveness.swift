import Foundation
import GatehouseCore

/// Whether a Cognito access token still counts here. The session id it is asked about is
/// ``CognitoSessionLiveness/key(sessionID:issuedAt:)``: the token's session and issue time.
///
/// - a deleted user's tokens never count;
/// - a session this server handed out counts while it is not ended;
/// - a session issued by Cognito elsewhere (the hosted UI) counts unless it was issued before the
///   user's last "sign out everywhere", password reset or change.
struct CognitoSessionLiveness: SessionLiveness {
    let store: any GatehouseStore

    static func key(sessionID: String, issuedAt: Date?) -> String {
        "\(sessionID)@\(Int64(issuedAt?.timeIntervalSince1970 ?? 0))"
    }

    func isLive(sessionID key: String, sub: String) async throws -> Bool {
        guard let at = key.lastIndex(of: "@"), let issued = Int64(key[key.index(after: at)...]) else { return false }
        let sessionID = String(key[..<at])
        return try await store.read { tx in
            let revocation = try await tx.subjectRevocation(sub: sub)
            if revocation?.deletedAt != nil { return false }
            if let session = try await tx.session(id: sessionID) { return session.isActive && session.userID == sub }
            guard let revocation else { return true }
            return issued >= Int64(revocation.revokedBefore.timeIntervalSince1970)
        }
    }
}
