import Foundation
import GatehouseInfrastructure

/// An authorization code's content, sealed with the master key into the code itself, so issuing one
/// writes nothing. Redeeming records its use once (by hash, until it expires); a second use is seen
/// there, and the sealed session id says what the first use issued, so that session can be ended.
struct AuthorizationCode: Sendable, Equatable {
    static let context = "oauth-code"
    static let maxSealedLength = 4096

    /// The hosted session's pool session; redeeming issues tokens in it.
    var sessionID: String
    /// The redirect URI the code was sent to; the token request must name the same one.
    var redirectURI: String
    /// The PKCE S256 challenge the verifier must match.
    var codeChallenge: String
    /// The client's nonce, for the ID token.
    var nonce: String?
    /// The granted scopes, space-separated.
    var scope: String
    /// When it stops redeeming.
    var expiresAt: Date
    /// A random id, so two codes for the same request differ.
    var id: String

    func seal(with box: SecretBox) throws -> String {
        var fields: [String: JSONValue] = [
            "sid": .string(sessionID), "ru": .string(redirectURI), "cc": .string(codeChallenge),
            "sc": .string(scope), "exp": .number(Double(expiresAt.epochSeconds)), "id": .string(id),
        ]
        if let nonce { fields["n"] = .string(nonce) }
        return try box.seal(JSONValue.object(fields).serialized(), context: Self.context)
    }

    static func open(_ sealed: String, with box: SecretBox) -> AuthorizationCode? {
        guard sealed.utf8.count <= maxSealedLength, let bytes = try? box.open(sealed, context: context),
            case .object(let o)? = try? StrictJSONParser(maxDepth: 2).parse(bytes),
            let sid = o["sid"]?.stringValue, let redirect = o["ru"]?.stringValue,
            let challenge = o["cc"]?.stringValue, let scope = o["sc"]?.stringValue, let exp = o["exp"]?.int64Value,
            let id = o["id"]?.stringValue
        else { return nil }
        return AuthorizationCode(
            sessionID: sid,
            redirectURI: redirect,
            codeChallenge: challenge,
            nonce: o["n"]?.stringValue,
            scope: scope,
            expiresAt: Date(epochSeconds: exp),
            id: id
        )
    }
}
