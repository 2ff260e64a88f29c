import Foundation
import GatehouseInfrastructure
import Logging

/// Asks the custom-claims hook for a user's extra claims before tokens are issued, and keeps its
/// rules: the answer must be `{"claims": {…}, "id_token_claims": {…}?}` within the size cap; reserved
/// names are dropped and logged (``ExtraClaims``); a timeout, an error or a malformed answer denies
/// (503 `upstream_unavailable`) or, when the operator allows it, issues tokens without extra claims.
/// A refresh may reuse the user's last answer for ``ClaimsHookSettings/cacheTTL`` seconds; a sign-in
/// always asks (and refreshes the cache).
public final class ClaimsHookGate: Sendable {
    let hook: any ClaimsHook
    /// Timeout, failure mode, cache lifetime and size cap.
    public let settings: ClaimsHookSettings
    let clock: any TimeSource
    let logger: Logger
    private let cache = LockedBox<[String: (claims: ExtraClaims, expires: Date)]>([:])
    static let maxCachedUsers = 10_000

    /// Creates the gate.
    /// - Parameters:
    ///   - hook: Where requests go.
    ///   - settings: Timeout, failure mode, cache lifetime and size cap.
    ///   - clock: The cache's time.
    ///   - logger: Where failures and dropped names are logged.
    public init(hook: any ClaimsHook, settings: ClaimsHookSettings, clock: any TimeSource, logger: Logger) {
        self.hook = hook
        self.settings = settings
        self.clock = clock
        self.logger = logger
    }

    /// The extra claims for `request`.
    /// - Parameter request: The user, token kind, client and method.
    /// - Returns: The claims (``ExtraClaims/none`` when the hook failed and failures are allowed).
    /// - Throws: `upstream_unavailable` when the hook failed and failures deny.
    public func claims(for request: ClaimsHookRequest) async throws -> ExtraClaims {
        let key = request.clientID + "\u{0}" + request.subject.sub
        if request.kind == .refresh, settings.cacheTTL > 0, let hit = cached(key) { return hit }
        let claims: ExtraClaims
        do {
            let answer = try await hook.send(request.body, timeout: settings.timeout)
            claims = try read(answer, sub: request.subject.sub)
        } catch {
            let metadata: Logger.Metadata = ["user.sub": .string(request.subject.sub), "hook.error": .string(String(describing: error))]
            switch settings.failure {
            case .deny:
                logger.error("the claims hook failed; no tokens issued", metadata: metadata)
                throw GatehouseError(
                    .upstreamUnavailable,
                    "The service that adds claims to tokens is unavailable. Try again shortly.",
                    cause: "claims hook: \(error)"
                )
            case .allow:
                logger.warning("the claims hook failed; tokens issued without its claims", metadata: metadata)
                return .none
            }
        }
        if settings.cacheTTL > 0 { remember(claims, key: key) }
        return claims
    }

    /// A malformed answer.
    struct MalformedAnswer: Error, CustomStringConvertible {
        let description: String
    }

    /// Parses and checks an answer's body.
    func read(_ body: [UInt8], sub: String) throws -> ExtraClaims {
        guard body.count <= settings.maxClaimBytes * 2 + 1024 else { throw MalformedAnswer(description: "answer of \(body.count) bytes") }
        let parsed: JSONValue
        do {
            parsed = try StrictJSONParser(maxDepth: 6).parse(body)
        } catch {
            throw MalformedAnswer(description: "answer is not JSON: \(error)")
        }
        guard case .object(let answer) = parsed else { throw MalformedAnswer(description: "answer is not a JSON object") }
        guard case .object(let access)? = answer["claims"] else { throw MalformedAnswer(description: "answer has no \"claims\" object") }
        var id: [String: JSONValue] = [:]
        switch answer["id_token_claims"] {
        case nil, .null?: break
        case .object(let members)?: id = members
        default: throw MalformedAnswer(description: "\"id_token_claims\" is not an object")
        }
        let size = JSONValue.object(access).serialized().count + JSONValue.object(id).serialized().count
        guard size <= settings.maxClaimBytes else {
            throw MalformedAnswer(description: "claims of \(size) bytes (at most \(settings.maxClaimBytes))")
        }
        let (claims, dropped) = ExtraClaims.filtering(access: access, id: id)
        if !dropped.isEmpty {
            logger.warning(
                "the claims hook asked for reserved claim names; they were dropped",
                metadata: ["user.sub": .string(sub), "claims.dropped": .string(dropped.map { String($0.prefix(64)) }.joined(separator: ","))]
            )
        }
        return claims
    }

    private func cached(_ key: String) -> ExtraClaims? {
        let now = clock.now()
        return cache.withLock { cache in
            guard let entry = cache[key] else { return nil }
            guard entry.expires > now else {
                cache[key] = nil
                return nil
            }
            return entry.claims
        }
    }

    private func remember(_ claims: ExtraClaims, key: String) {
        let now = clock.now()
        let expires = now.addingTimeInterval(settings.cacheTTL)
        cache.withLock { cache in
            if cache.count >= Self.maxCachedUsers {
                cache = cache.filter { $0.value.expires > now }
                if cache.count >= Self.maxCachedUsers { cache.removeAll(keepingCapacity: true) }
            }
            cache[key] = (claims, expires)
        }
    }
}
