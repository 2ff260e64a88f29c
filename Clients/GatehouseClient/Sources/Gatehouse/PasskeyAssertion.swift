import Foundation

/// A passkey's answer to a sign-in challenge as the authenticator returned it (on Apple platforms
/// `ASAuthorizationPlatformPublicKeyCredentialAssertion`): the raw bytes, which ``responseJSON`` turns into WebAuthn's
/// `AuthenticationResponseJSON` for ``GatehouseClient/signInWithPasskey(_:)``.
public struct PasskeyAssertion: Sendable, Equatable {
    /// The credential that answered (`credentialID`).
    public var credentialID: Data
    /// The client data the authenticator signed (`rawClientDataJSON`): the challenge, the origin, `webauthn.get`.
    public var clientDataJSON: Data
    /// The authenticator data (`rawAuthenticatorData`): the RP id's hash, the flags, the signature counter.
    public var authenticatorData: Data
    /// The signature over the authenticator data and the client data's hash (`signature`).
    public var signature: Data
    /// The user handle stored with the passkey (`userID`), when the authenticator returned one.
    public var userHandle: Data?
    /// `platform` or `cross-platform`, when known.
    public var authenticatorAttachment: String?

    /// An assertion from the authenticator's raw fields.
    ///
    /// - Parameters:
    ///   - credentialID: The credential's id.
    ///   - clientDataJSON: The client data JSON, as bytes.
    ///   - authenticatorData: The authenticator data, as bytes.
    ///   - signature: The signature.
    ///   - userHandle: The user handle, if returned.
    ///   - authenticatorAttachment: `platform` or `cross-platform`, if known.
    public init(
        credentialID: Data,
        clientDataJSON: Data,
        authenticatorData: Data,
        signature: Data,
        userHandle: Data? = nil,
        authenticatorAttachment: String? = nil
    ) {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
        self.authenticatorAttachment = authenticatorAttachment
    }

    /// WebAuthn's `AuthenticationResponseJSON` (what a browser's `credential.toJSON()` makes): `id` and `rawId`, `type`
    /// `public-key`, `response` with `clientDataJSON`, `authenticatorData`, `signature` and `userHandle` (left out
    /// when there is none), the empty `clientExtensionResults`, and `authenticatorAttachment` when known; every byte
    /// field in base64url.
    public var responseJSON: [String: Any] {
        let id = Base64URL.encode(credentialID)
        var response: [String: Any] = [
            "clientDataJSON": Base64URL.encode(clientDataJSON), "authenticatorData": Base64URL.encode(authenticatorData),
            "signature": Base64URL.encode(signature),
        ]
        if let userHandle, !userHandle.isEmpty { response["userHandle"] = Base64URL.encode(userHandle) }
        var json: [String: Any] = ["id": id, "rawId": id, "type": "public-key", "response": response, "clientExtensionResults": [String: Any]()]
        if let authenticatorAttachment { json["authenticatorAttachment"] = authenticatorAttachment }
        return json
    }
}
