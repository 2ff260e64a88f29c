import Foundation
import GatehouseInfrastructure

/// A WebAuthn challenge that carries its own meaning, sealed with the master key: which ceremony it is
/// for, the user it is bound to (a registration's caller; a sign-in's named account, if any) and when
/// it expires. Issuing one writes nothing; its single use is recorded when it comes back.
struct PasskeyChallenge: Sendable, Equatable {
    enum Purpose: String, Sendable {
        case registration = "reg"
        case authentication = "auth"
    }

    static let context = "passkey-challenge"

    var purpose: Purpose
    /// The bound user, or `""` for a discoverable sign-in.
    var userID: String
    var expiresAt: Date
    var nonce: String

    func seal(with box: SecretBox) throws -> String {
        let payload = JSONValue.object([
            "p": .string(purpose.rawValue), "u": .string(userID), "e": .number(Double(expiresAt.epochSeconds)), "n": .string(nonce),
        ])
        return Base64URL.encode(try box.sealBytes(payload.serialized(), context: Self.context))
    }

    static func open(_ challenge: [UInt8], with box: SecretBox) -> PasskeyChallenge? {
        guard challenge.count <= 512, let bytes = try? box.openBytes(challenge, context: context),
            case .object(let o)? = try? StrictJSONParser(maxDepth: 2).parse(bytes),
            let purpose = o["p"]?.stringValue.flatMap(Purpose.init(rawValue:)), let user = o["u"]?.stringValue,
            let expiry = o["e"]?.int64Value, let nonce = o["n"]?.stringValue
        else { return nil }
        return PasskeyChallenge(purpose: purpose, userID: user, expiresAt: Date(epochSeconds: expiry), nonce: nonce)
    }
}
