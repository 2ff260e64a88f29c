import Foundation
import GatehouseInfrastructure

/// `exp` (required), `nbf` and `iat` (optional), integral NumericDates checked against `now ± leeway`.
struct TimeClaims: Sendable {
    var expiresAt: Date
    var notBefore: Date?
    var issuedAt: Date?

    /// Reads and checks the time claims.
    /// - Parameters:
    ///   - claims: The token's claims.
    ///   - now: The time to check against.
    ///   - leeway: Clock skew allowed either way.
    ///   - context: Names the token in failure messages.
    ///   - failure: Makes the error thrown for a missing, malformed or out-of-time claim.
    /// - Throws: What `failure` makes, when `exp` is missing or past, `nbf` is ahead, `iat` is in the
    ///   future, or a claim is not a number.
    package init(
        _ claims: [String: JSONValue],
        now: Date,
        leeway: TimeInterval,
        context: String,
        failure: (String) -> GatehouseError = { .unauthorized(cause: $0) }
    ) throws(GatehouseError) {
        func date(_ name: String) throws(GatehouseError) -> Date? {
            guard let value = claims[name] else { return nil }
            guard case .number(let seconds) = value, seconds.isFinite else {
                throw failure("\(context): '\(name)' is not a number")
            }
            return Date(timeIntervalSince1970: seconds)
        }
        guard let exp = try date("exp") else { throw failure("\(context): no exp") }
        guard exp.timeIntervalSince(now) > -leeway else { throw failure("\(context): expired") }
        let nbf = try date("nbf")
        if let nbf, nbf.timeIntervalSince(now) > leeway { throw failure("\(context): not yet valid (nbf)") }
        let iat = try date("iat")
        if let iat, iat.timeIntervalSince(now) > leeway { throw failure("\(context): issued in the future (iat)") }
        expiresAt = exp
        notBefore = nbf
        issuedAt = iat
    }
}
