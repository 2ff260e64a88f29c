import Crypto
import Foundation
import GatehouseInfrastructure

/// The `state` the hosted UI sends to Google or Apple: the app's authorization request, the nonce it
/// gave the provider, and the hash of a secret held in a cookie of the browser that started, sealed
/// with the master key. The app's own `state` never leaves for the provider in the clear; a state
/// returned to another browser, altered, expired or used before is refused.
struct FederationState: Sendable {
    static let context = "federation-state"
    static let maxSealedLength = 8192

    /// `Google` or `SignInWithApple`.
    var provider: AuthorizationRequest.IdentityProvider
    /// The app's request, as query items.
    var request: [(name: String, value: String)]
    /// The raw nonce; the provider received its SHA-256 in hex.
    var nonce: String
    /// SHA-256 of the browser-binding cookie's secret.
    var bindingHash: [UInt8]
    /// When it stops being accepted.
    var expiresAt: Date

    static func bindingHash(of secret: String) -> [UInt8] {
        Array(SHA256.hash(data: Data(secret.utf8)))
    }

    func seal(with box: SecretBox) throws -> String {
        let payload = JSONValue.object([
            "p": .string(provider.rawValue), "n": .string(nonce), "bh": .string(Base64URL.encode(bindingHash)),
            "exp": .number(Double(expiresAt.epochSeconds)), "q": .array(request.map { .array([.string($0.name), .string($0.value)]) }),
        ])
        return try box.seal(payload.serialized(), context: Self.context)
    }

    static func open(_ sealed: String, with box: SecretBox) -> FederationState? {
        guard sealed.utf8.count <= maxSealedLength, let bytes = try? box.open(sealed, context: context),
            case .object(let o)? = try? StrictJSONParser(maxDepth: 4).parse(bytes),
            let provider = o["p"]?.stringValue.flatMap(AuthorizationRequest.IdentityProvider.init(rawValue:)),
            let nonce = o["n"]?.stringValue, let binding = o["bh"]?.stringValue.flatMap(Base64URL.decode),
            let exp = o["exp"]?.int64Value, let pairs = o["q"]?.arrayValue
        else { return nil }
        var request: [(name: String, value: String)] = []
        for pair in pairs {
            guard let parts = pair.arrayValue, parts.count == 2, let name = parts[0].stringValue, let value = parts[1].stringValue else { return nil }
            request.append((name, value))
        }
        return FederationState(provider: provider, request: request, nonce: nonce, bindingHash: binding, expiresAt: Date(epochSeconds: exp))
    }
}
