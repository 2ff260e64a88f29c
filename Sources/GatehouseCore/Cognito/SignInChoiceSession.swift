import Foundation
import GatehouseInfrastructure

/// The `Session` of Cognito's `SELECT_CHALLENGE`: the address it was issued for (as a keyed hash, so the
/// session's length is the same for every address), the app client, the
/// first factors offered and when it expires, sealed with the master key under a context of its own
/// (so no other sealed value, such as an MFA challenge or an SRP secret block, opens as one, and it
/// opens as no other). Issuing one writes nothing; its single use is recorded when it is answered.
struct SignInChoiceSession: Sendable, Equatable {
    static let context = "cognito-select-challenge/v1"
    /// Cognito's own default for a sign-in session (`AuthSessionValidity`: three minutes).
    static let lifetime: TimeInterval = 180

    /// The keyed hash of the ``EmailAddress/key`` the choice was offered for (``address(_:box:)``).
    var address: String
    var clientID: String
    var offered: [SignInChoice]
    var expiresAt: Date
    var id: String

    /// What a session names of an address: a keyed hash of its key, 43 characters whatever the address.
    static func address(_ email: EmailAddress, box: SecretBox) -> String { box.keyedHash("select-challenge-address", email.key) }

    func seal(with box: SecretBox) throws -> String {
        let payload = JSONValue.object([
            "u": .string(address), "c": .string(clientID), "o": .array(offered.map { .string($0.rawValue) }),
            "e": .number(Double(expiresAt.epochSeconds)), "i": .string(id),
        ])
        return try box.seal(payload.serialized(), context: Self.context)
    }

    static func open(_ sealed: String, with box: SecretBox) -> SignInChoiceSession? {
        guard sealed.utf8.count <= 2048, let bytes = try? box.open(sealed, context: context),
            case .object(let o)? = try? StrictJSONParser(maxDepth: 3).parse(bytes),
            let email = o["u"]?.stringValue, let client = o["c"]?.stringValue, let offered = o["o"]?.arrayValue,
            let expiry = o["e"]?.int64Value, let id = o["i"]?.stringValue
        else { return nil }
        let choices = offered.compactMap { $0.stringValue.flatMap(SignInChoice.init(rawValue:)) }
        guard choices.count == offered.count else { return nil }
        return SignInChoiceSession(address: email, clientID: client, offered: choices, expiresAt: Date(epochSeconds: expiry), id: id)
    }
}
