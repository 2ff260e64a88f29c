import Foundation

extension SessionIssuer {
    /// The custom-claims hook's claims for `user`, or none when no hook is configured. Called before
    /// the transaction that records the session (or rotates the refresh token), so a denial leaves
    /// nothing written.
    /// - Throws: `upstream_unavailable` when the hook failed and failures deny.
    func hookClaims(for user: UserRecord, kind: ClaimsHookRequest.Kind, method: String) async throws -> ExtraClaims {
        guard let claimsHook else { return .none }
        let request = ClaimsHookRequest(subject: TokenSubject(user), kind: kind, clientID: tokens.settings.clientID, method: method)
        return try await claimsHook.claims(for: request)
    }

    /// The hook's claims for a session recorded in the transaction that found (or created) its user —
    /// social and phone sign-in, where the user is not known before. When the hook denies, the session
    /// is ended at once (its refresh token was never shown to anyone) and audited, so no live session
    /// is left behind; the denial is rethrown.
    func hookClaims(afterRecording session: SessionRecord, user: UserRecord) async throws -> ExtraClaims {
        guard claimsHook != nil else { return .none }
        do {
            return try await hookClaims(for: user, kind: .signIn, method: session.method)
        } catch {
            let (now, origin) = (clock.now(), AuditOrigin.current)
            _ = try await store.write { tx in
                guard try await tx.revokeSession(id: session.id, at: now, reason: .claimsHookDenied) else { return false }
                let reason = SessionRecord.EndReason.claimsHookDenied.rawValue
                try await tx.appendAudit(.make(.sessionEnded, userID: user.id, detail: reason, origin: origin, at: now, random: random))
                return true
            }
            throw error
        }
    }
}
