import Foundation
import GatehouseInfrastructure

/// Verifies the signed payload of Apple's server-to-server notifications: a JWS signed with one of
/// Apple's keys (the same key set as Apple's ID tokens: RS256 only, a `kid`, refetched once on an
/// unknown one), `iss` `https://appleid.apple.com`, `aud` one of our Apple client ids, an `iat` no more
/// than 60 s ahead and no older than ``maxAge``, and an `events` claim (a JSON string) whose `type`
/// is one Apple documents, with a `sub` and an `event_time`.
public struct AppleNotificationVerifier: Sendable {
    /// How old a notification may be when it arrives (24 hours: Apple retries while we are down).
    public static let maxAge: TimeInterval = 86_400
    let apple: ProviderTokenVerifier
    let clock: any TimeSource

    /// Creates the verifier over the Apple ID-token verifier's keys and audiences.
    /// - Parameters:
    ///   - apple: The Apple ID-token verifier (its key set and allowed audiences are used).
    ///   - clock: The time `iat` is checked against.
    public init(apple: ProviderTokenVerifier, clock: any TimeSource) {
        self.apple = apple
        self.clock = clock
    }

    /// Whether Apple is configured (otherwise every payload is refused).
    public var isEnabled: Bool { apple.isEnabled }

    /// Verifies one payload.
    /// - Parameter payload: The compact JWS Apple posted as `payload`.
    /// - Returns: The notification.
    /// - Throws: `invalid_token` (the reason in `cause`), `provider_disabled`, or `upstream_unavailable`
    ///   when Apple's keys cannot be fetched and none are cached.
    public func verify(_ payload: String) async throws -> AppleNotification {
        func refuse(_ cause: String) -> GatehouseError { .invalidToken(cause: "apple notification: \(cause)") }
        guard let settings = apple.settings else {
            throw GatehouseError(.providerDisabled, "Sign in with Apple is not enabled on this server.", cause: "no Apple client ids")
        }
        guard payload.utf8.count <= 16 * 1024 else { throw refuse("payload too long") }
        let jws: CompactJWS
        do { jws = try CompactJWS(parsing: payload) } catch { throw refuse(error.description) }
        guard jws.algorithm == "RS256" else { throw refuse("alg \(jws.algorithmForLog) is not RS256") }
        guard let kid = jws.keyID else { throw refuse("no kid") }
        let keys = try await settings.keys.keys(containing: kid)
        do { try keys.verify(jws) } catch { throw refuse("signature: \(error)") }
        let claims = jws.claims
        guard let iss = claims["iss"]?.stringValue, ProviderTokenVerifier.appleIssuers.contains(iss) else { throw refuse("issuer not accepted") }
        let audiences: [String]
        switch claims["aud"] {
        case .string(let aud)?: audiences = [aud]
        case .array(let values)?: audiences = values.compactMap(\.stringValue)
        default: throw refuse("no aud")
        }
        guard let audience = audiences.first(where: { settings.allowedAudiences.contains($0) }) else { throw refuse("aud not allowed") }
        let now = clock.now().epochSeconds
        guard let iat = claims["iat"]?.int64Value else { throw refuse("no iat") }
        guard iat <= now + 60, now - iat <= Int64(Self.maxAge) else { throw refuse("iat outside the window") }
        if let exp = claims["exp"]?.int64Value, exp + 60 < now { throw refuse("expired") }

        // `events` is a JSON object serialised into a string (Apple's documented form); an object is taken too.
        let events: [String: JSONValue]
        switch claims["events"] {
        case .string(let text)?:
            guard case .object(let members)? = try? StrictJSONParser(maxDepth: 4).parse(Array(text.utf8)) else { throw refuse("events is not JSON") }
            events = members
        case .object(let members)?: events = members
        default: throw refuse("no events")
        }
        guard let type = events["type"]?.stringValue, let kind = AppleNotification.Kind(rawValue: type) else { throw refuse("unknown type") }
        guard let sub = events["sub"]?.stringValue, !sub.isEmpty, sub.utf8.count <= 255 else { throw refuse("bad sub") }
        let eventTime: Int64
        switch events["event_time"] {
        case .number?: eventTime = events["event_time"]?.int64Value ?? 0
        case .string(let text)?: eventTime = Int64(text) ?? 0
        default: throw refuse("no event_time")
        }
        // Apple documents milliseconds; a value that small is seconds.
        let seconds = eventTime > 100_000_000_000 ? eventTime / 1000 : eventTime
        let isPrivate = try ProviderTokenVerifier.flag(events["is_private_email"], name: "is_private_email", refuse: refuse)
        return AppleNotification(
            kind: kind,
            subject: sub,
            eventTime: Date(epochSeconds: seconds),
            email: events["email"]?.stringValue,
            isPrivateEmail: events["is_private_email"] == nil ? nil : isPrivate,
            audience: audience,
            eventHash: Digests.sha256Hex("apple-notification\u{0}\(type)\u{0}\(sub)\u{0}\(eventTime)")
        )
    }
}
