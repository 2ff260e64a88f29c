import Foundation
import GatehouseInfrastructure

/// A browser's hosted session: the cookie the pages set once the user signed in, so the next
/// authorization request in the same browser skips the form (single sign-on). The cookie holds this,
/// sealed with the master key; it is bound to a pool session, so it stops working as soon as that
/// session ends (logout, sign-out everywhere, refresh-token reuse, account deletion), whatever its
/// own expiry says.
public struct HostedSession: Sendable, Equatable {
    static let context = "hosted-session"
    static let maxSealedLength = 1024

    /// The pool session it is bound to.
    public var sessionID: String
    /// When the cookie stops being accepted.
    public var expiresAt: Date

    func seal(with box: SecretBox) throws -> String {
        let payload = JSONValue.object([
            "sid": .string(sessionID), "exp": .number(Double(expiresAt.epochSeconds)),
        ])
        return try box.seal(payload.serialized(), context: Self.context)
    }

    static func open(_ sealed: String, with box: SecretBox) -> HostedSession? {
        guard sealed.utf8.count <= maxSealedLength, let bytes = try? box.open(sealed, context: context),
            case .object(let o)? = try? StrictJSONParser(maxDepth: 2).parse(bytes),
            let sid = o["sid"]?.stringValue, let exp = o["exp"]?.int64Value
        else { return nil }
        return HostedSession(sessionID: sid, expiresAt: Date(epochSeconds: exp))
    }
}
