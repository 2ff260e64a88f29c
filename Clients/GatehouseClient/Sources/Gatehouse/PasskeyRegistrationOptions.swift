import Foundation

/// What creating a passkey needs (`POST /me/passkeys/options`, WebAuthn's `PublicKeyCredentialCreationOptionsJSON`),
/// its base64url fields decoded: the parts `ASAuthorizationPlatformPublicKeyCredentialProvider` takes, and the whole
/// JSON for other authenticators (a browser's `PublicKeyCredential.parseCreationOptionsFromJSON`, Android's
/// Credential Manager).
///
/// The server asks for a discoverable credential with user verification and no attestation (ES256, EdDSA or RS256);
/// the challenge is good for one registration within its `timeout`.
public struct PasskeyRegistrationOptions: Sendable, Equatable {
    /// The challenge's bytes (`challenge`), to sign into the new credential's client data.
    public var challenge: Data
    /// The relying party id (`rp.id`), the domain the passkey belongs to (`GATEHOUSE_PASSKEY_RP_ID`).
    public var relyingPartyID: String
    /// The user handle's bytes (`user.id`): the account's stable id, stored with the passkey.
    public var userID: Data
    /// The account's name for the passkey (`user.name`: its email address or phone number), shown in the system sheet.
    public var userName: String
    /// The display name (`user.displayName`), when the server sent one.
    public var userDisplayName: String?
    /// The ids of the account's passkeys (`excludeCredentials`), so an authenticator that holds one makes no second.
    public var excludedCredentialIDs: [Data]
    /// The options as the server sent them.
    public var json: Data

    /// Reads the server's options.
    ///
    /// - Parameter json: A `PublicKeyCredentialCreationOptionsJSON` object.
    /// - Throws: ``GatehouseError/invalidResponse(_:)`` when a field the ceremony needs is missing or not base64url.
    public init(json: Data) throws {
        let object = (try? JSONSerialization.jsonObject(with: json)) as? [String: Any] ?? [:]
        let user = object["user"] as? [String: Any] ?? [:]
        guard let challenge = (object["challenge"] as? String).flatMap(Base64URL.decode), !challenge.isEmpty,
            let relyingPartyID = (object["rp"] as? [String: Any])?["id"] as? String, !relyingPartyID.isEmpty,
            let userID = (user["id"] as? String).flatMap(Base64URL.decode), !userID.isEmpty,
            let userName = user["name"] as? String,
            let excluded = PasskeySignInOptions.credentialIDs(object["excludeCredentials"])
        else {
            throw GatehouseError.invalidResponse("PasskeyRegistrationOptions: challenge, rp.id, user.id and user.name are required, ids in base64url")
        }
        self.challenge = challenge
        self.relyingPartyID = relyingPartyID
        self.userID = userID
        self.userName = userName
        self.userDisplayName = user["displayName"] as? String
        self.excludedCredentialIDs = excluded
        self.json = json
    }
}
