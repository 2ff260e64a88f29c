import Foundation
import GatehouseInfrastructure
import Logging

/// Keeps each Apple user's refresh token (sealed) so the account can be revoked with Apple when it is
/// deleted (App Store Review Guideline 5.1.1(v)), through a durable queue that retries with back-off
/// while Apple is unreachable.
public struct AppleTokenVault: Sendable {
    let api: any AppleTokenAPI
    let store: any GatehouseStore
    let box: SecretBox
    let clock: any TimeSource
    let random: any RandomSource
    /// Give up on a revocation after this long (Apple's refresh tokens are long gone by then anyway).
    var giveUpAfter: TimeInterval = 14 * 86_400

    /// Creates the vault.
    /// - Parameters:
    ///   - api: Apple's token API (code exchange and revocation).
    ///   - store: Holds the sealed tokens and the revocation queue.
    ///   - box: Seals the refresh tokens at rest, bound to their row (`apple-refresh:` and `apple-revocation:` contexts).
    ///   - clock: Back-off and give-up times.
    ///   - random: Revocation ids.
    public init(api: any AppleTokenAPI, store: any GatehouseStore, box: SecretBox, clock: any TimeSource, random: any RandomSource) {
        self.api = api
        self.store = store
        self.box = box
        self.clock = clock
        self.random = random
    }

    /// Exchanges Apple's one-time authorization code and stores the refresh token, if the identity
    /// token Apple returns with it is the signed-in user's (same `sub`, issued to the same client): a
    /// code of someone else's, sent beside your own identity token, must never leave their refresh
    /// token with your account (to be revoked when you delete it). A failure is logged and does not
    /// fail the sign-in (the user is already proven by the identity token).
    /// - Parameters:
    ///   - userID: Our user the token belongs to.
    ///   - identity: The verified Apple identity; its `audience` is the client id the code was issued to.
    ///   - code: Apple's one-time authorization code.
    ///   - redirectURI: The redirect URI the code was issued for (web flow), else `nil`.
    ///   - logger: Logs a failed exchange.
    public func keepRefreshToken(for userID: String, identity: VerifiedIdentity, code: String, redirectURI: String?, logger: Logger) async {
        do {
            let grant = try await api.exchange(code: code, clientID: identity.audience, redirectURI: redirectURI)
            guard Self.grant(grant, belongsTo: identity) else {
                logger.warning("the Apple authorization code belongs to another Apple user or client; its refresh token is not kept")
                return
            }
            guard let refreshToken = grant.refreshToken else {
                logger.warning("Apple returned no refresh token for the authorization code")
                return
            }
            let record = AppleTokenRecord(
                userID: userID,
                appleSubject: identity.subject,
                clientID: identity.audience,
                sealedRefreshToken: try box.seal(Array(refreshToken.utf8), context: "apple-refresh:\(identity.subject):\(identity.audience)"),
                createdAt: clock.now()
            )
            try await store.write { tx in try await tx.upsertAppleToken(record) }
        } catch {
            logger.warning(
                "could not exchange the Apple authorization code; the account cannot be revoked with Apple later",
                metadata: ["error": .string("\(error)")]
            )
        }
    }

    /// Whether Apple's answer to the code was issued for `identity`: its identity token (received
    /// straight from Apple over TLS, so its claims are read as sent) names the same subject and the
    /// same client. An answer without one proves nothing and is refused.
    static func grant(_ grant: AppleTokenGrant, belongsTo identity: VerifiedIdentity) -> Bool {
        guard let raw = grant.idToken, let jws = try? CompactJWS(parsing: raw) else { return false }
        let audiences: [String]
        switch jws.claims["aud"] {
        case .string(let aud)?: audiences = [aud]
        case .array(let values)?: audiences = values.compactMap(\.stringValue)
        default: return false
        }
        return jws.claims["sub"]?.stringValue == identity.subject && audiences.contains(identity.audience)
    }

    /// Inside the deletion transaction: moves the user's Apple tokens into the revocation queue.
    /// Returns the ids queued.
    func enqueueRevocations(userID: String, in tx: any StoreTransaction) async throws -> [String] {
        let now = clock.now()
        var ids: [String] = []
        for token in try await tx.appleTokens(userID: userID) {
            let plain = try box.open(token.sealedRefreshToken, context: "apple-refresh:\(token.appleSubject):\(token.clientID)")
            let id = random.uuid()
            try await tx.enqueueRevocation(
                AppleRevocationRecord(
                    id: id,
                    clientID: token.clientID,
                    sealedRefreshToken: try box.seal(plain, context: "apple-revocation:\(id)"),
                    createdAt: now,
                    nextAttemptAt: now
                )
            )
            ids.append(id)
        }
        try await tx.deleteAppleTokens(userID: userID)
        return ids
    }

    /// Tries the given queued revocations now.
    func attempt(ids: [String], logger: Logger) async {
        for id in ids {
            guard let record = try? await store.read({ try await $0.revocation(id: id) }), record.completedAt == nil else { continue }
            await attempt(record, logger: logger)
        }
    }

    /// Tries every revocation that is due. A failed attempt is retried with exponential back-off (30 s
    /// doubling, at most an hour) until ``giveUpAfter`` has passed since it was queued.
    /// - Parameters:
    ///   - limit: The most revocations tried in this call.
    ///   - logger: Logs each outcome.
    /// - Returns: How many it tried.
    /// - Throws: A store error reading the queue (a failed revocation is recorded, not thrown).
    @discardableResult
    public func processDue(limit: Int = 50, logger: Logger) async throws -> Int {
        let now = clock.now()
        // Claimed for five minutes: other instances leave them alone, and they come due again if this
        // one dies before recording the outcome.
        let due = try await store.write { try await $0.claimDueRevocations(now: now, leaseUntil: now.addingTimeInterval(300), limit: limit) }
        for record in due { await attempt(record, logger: logger) }
        return due.count
    }

    private func attempt(_ record: AppleRevocationRecord, logger: Logger) async {
        var record = record
        let now = clock.now()
        record.attempts += 1
        do {
            let token = String(decoding: try box.open(record.sealedRefreshToken, context: "apple-revocation:\(record.id)"), as: UTF8.self)
            try await api.revoke(refreshToken: token, clientID: record.clientID)
            record.completedAt = now
            record.lastError = nil
            record.sealedRefreshToken = ""
            logger.info(
                "revoked the user's Apple token",
                metadata: ["revocation.id": .string(record.id), "attempts": .stringConvertible(record.attempts)]
            )
        } catch {
            record.lastError = String("\(error)".prefix(500))
            if now.timeIntervalSince(record.createdAt) > giveUpAfter {
                record.completedAt = now
                record.sealedRefreshToken = ""
                logger.error(
                    "gave up revoking an Apple token",
                    metadata: ["revocation.id": .string(record.id), "attempts": .stringConvertible(record.attempts)]
                )
            } else {
                let delay = min(3600, 30 * pow(2, Double(min(record.attempts - 1, 10))))
                record.nextAttemptAt = now.addingTimeInterval(delay)
                logger.warning(
                    "Apple token revocation failed; will retry",
                    metadata: [
                        "revocation.id": .string(record.id), "attempts": .stringConvertible(record.attempts),
                        "retry_in_s": .stringConvertible(Int(delay)),
                    ]
                )
            }
        }
        let updated = record
        do {
            try await store.write { tx in try await tx.updateRevocation(updated) }
        } catch {
            logger.error("could not record the Apple revocation attempt", metadata: ["error": .string("\(error)")])
        }
    }
}
