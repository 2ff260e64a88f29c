import Foundation

/// What signing in with a passkey needs (`POST /auth/passkey/options`, WebAuthn's
/// `PublicKeyCredentialRequestOptionsJSON`), its base64url fields decoded: the parts
/// `ASAuthorizationPlatformPublicKeyCredentialProvider` takes, and the whole JSON for other authenticators.
public struct PasskeySignInOptions: Sendable, Equatable {
    /// The challenge's bytes (`challenge`), good for one sign-in within its `timeout`.
    public var challenge: Data
    /// The relying party id (`rpId`), the domain the passkeys belong to.
    public var relyingPartyID: String
    /// The passkeys that may answer (`allowCredentials`): empty without an email address, so the authenticator
    /// offers every passkey it holds for the domain (discoverable credentials).
    public var allowedCredentialIDs: [Data]
    /// The options as the server sent them.
    public var json: Data

    /// Reads the server's options.
    ///
    /// - Parameter json: A `PublicKeyCredentialRequestOptionsJSON` object.
    /// - Throws: ``GatehouseError/invalidResponse(_:)`` when the challenge or the RP id is missing, or an id is not
    ///   base64url.
    public init(json: Data) throws {
        let object = (try? JSONSerialization.jsonObject(with: json)) as? [String: Any] ?? [:]
        guard let challenge = (object["challenge"] as? String).flatMap(Base64URL.decode), !challenge.isEmpty,
            let relyingPartyID = object["rpId"] as? String, !relyingPartyID.isEmpty,
            let allowed = Self.credentialIDs(object["allowCredentials"])
        else {
            throw GatehouseError.invalidResponse("PasskeySignInOptions: challenge and rpId are required, ids in base64url")
        }
        self.challenge = challenge
        self.relyingPartyID = relyingPartyID
        self.allowedCredentialIDs = allowed
        self.json = json
    }

    /// The ids of a list of `PublicKeyCredentialDescriptorJSON` (`[]` when absent), or `nil` when one is malformed.
    static func credentialIDs(_ value: Any?) -> [Data]? {
        guard let value, !(value is NSNull) else { return [] }
        guard let descriptors = value as? [[String: Any]] else { return nil }
        var ids: [Data] = []
        for descriptor in descriptors {
            guard let id = (descriptor["id"] as? String).flatMap(Base64URL.decode), !id.isEmpty else { return nil }
            ids.append(id)
        }
        return ids
    }
}
