import Foundation
import GatehouseInfrastructure

/// The second step of a sign-in by a user with a second factor: who passed the first factor and how,
/// sealed with the master key (issuing one writes nothing), good for 5 minutes, redeemed once.
struct MFAChallenge: Sendable, Equatable {
    static let context = "mfa-challenge"
    static let lifetime: TimeInterval = 300

    var userID: String
    /// The first factor's session method (`password`, `phone`, `google`, `apple`).
    var method: String
    var expiresAt: Date
    var id: String

    func seal(with box: SecretBox) throws -> String {
        let payload = JSONValue.object([
            "u": .string(userID), "m": .string(method), "e": .number(Double(expiresAt.epochSeconds)), "i": .string(id),
        ])
        return try box.seal(payload.serialized(), context: Self.context)
    }

    static func open(_ sealed: String, with box: SecretBox) -> MFAChallenge? {
        guard sealed.utf8.count <= 1024, let bytes = try? box.open(sealed, context: context),
            case .object(let o)? = try? StrictJSONParser(maxDepth: 2).parse(bytes),
            let user = o["u"]?.stringValue, let method = o["m"]?.stringValue, let expiry = o["e"]?.int64Value, let id = o["i"]?.stringValue
        else { return nil }
        return MFAChallenge(userID: user, method: method, expiresAt: Date(epochSeconds: expiry), id: id)
    }
}
