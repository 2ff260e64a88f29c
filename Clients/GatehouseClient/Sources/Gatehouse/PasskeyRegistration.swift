import Foundation

/// A new passkey as an authenticator returned it (on Apple platforms
/// `ASAuthorizationPlatformPublicKeyCredentialRegistration`): the raw bytes, which ``responseJSON`` turns into
/// WebAuthn's `RegistrationResponseJSON` for ``GatehouseClient/registerPasskey(_:name:)``.
public struct PasskeyRegistration: Sendable, Equatable {
    /// The new credential's id (`credentialID`).
    public var credentialID: Data
    /// The client data the authenticator signed (`rawClientDataJSON`): the challenge, the origin, `webauthn.create`.
    public var clientDataJSON: Data
    /// The CBOR attestation object (`rawAttestationObject`): the authenticator data with the public key.
    public var attestationObject: Data
    /// How the authenticator can be reached (`internal`, `hybrid`, `usb` …); empty when unknown. Kept with the passkey
    /// as a hint for later sign-ins.
    public var transports: [String]
    /// `platform` or `cross-platform`, when known.
    public var authenticatorAttachment: String?

    /// A registration from the authenticator's raw fields.
    ///
    /// - Parameters:
    ///   - credentialID: The new credential's id.
    ///   - clientDataJSON: The client data JSON, as bytes.
    ///   - attestationObject: The attestation object, as bytes.
    ///   - transports: The authenticator's transports, if known.
    ///   - authenticatorAttachment: `platform` or `cross-platform`, if known.
    public init(credentialID: Data, clientDataJSON: Data, attestationObject: Data, transports: [String] = [], authenticatorAttachment: String? = nil)
    {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
        self.transports = transports
        self.authenticatorAttachment = authenticatorAttachment
    }

    /// WebAuthn's `RegistrationResponseJSON` (what a browser's `credential.toJSON()` makes): `id` and `rawId` (the
    /// credential id), `type` `public-key`, `response` with `clientDataJSON`, `attestationObject` and `transports`, the
    /// empty `clientExtensionResults`, and `authenticatorAttachment` when known; every byte field in base64url.
    public var responseJSON: [String: Any] {
        let id = Base64URL.encode(credentialID)
        let response: [String: Any] = [
            "clientDataJSON": Base64URL.encode(clientDataJSON), "attestationObject": Base64URL.encode(attestationObject),
            "transports": transports,
        ]
        var json: [String: Any] = ["id": id, "rawId": id, "type": "public-key", "response": response, "clientExtensionResults": [String: Any]()]
        if let authenticatorAttachment { json["authenticatorAttachment"] = authenticatorAttachment }
        return json
    }
}
