import Crypto
import Foundation
import GatehouseInfrastructure

/// A software passkey (ES256, one discoverable credential) for the in-process tests: it answers the
/// server's options with WebAuthn's JSON forms as a browser's `credential.toJSON()` gives them. Its
/// CBOR is written byte by byte here, not with the core's encoder, so the two cannot share a mistake.
/// `Scripts/passkeys_authenticator.py` (python-fido2) is the independent one over a real socket.
struct SoftPasskey {
    let key = P256.Signing.PrivateKey()
    let credentialID: [UInt8] = (0..<32).map { _ in UInt8.random(in: 0...255) }
    let rpID: String
    let origin: String
    /// The user handle of the registration options, answered on sign-in.
    private(set) var userHandle = ""
    /// The signature counter the next assertion carries.
    var counter: UInt32 = 0

    /// The credential id as the JSON forms carry it.
    var id: String { Base64URL.encode(credentialID) }

    /// `navigator.credentials.create()`'s `RegistrationResponseJSON` for creation options.
    /// - Parameters:
    ///   - options: The server's `PublicKeyCredentialCreationOptionsJSON`.
    ///   - type: The client data's type (another one is a hostile case).
    /// - Returns: The response.
    mutating func registration(_ options: JSONValue?, type: String = "webauthn.create") -> JSONValue {
        let fields = options?.objectValue ?? [:]
        userHandle = fields["user"]?.objectValue?["id"]?.stringValue ?? ""
        let point = Array(key.publicKey.x963Representation)
        let cose: [UInt8] =
            [0xA5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21] + Self.bytes(Array(point[1..<33])) + [0x22] + Self.bytes(Array(point[33...]))
        let flags: UInt8 = 0x45  // user present, user verified, attested credential data
        let authData =
            Array(SHA256.hash(data: Data(rpID.utf8))) + [flags, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 16)
            + [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xFF)] + credentialID + cose
        let attestation: [UInt8] =
            [0xA3] + Self.text("fmt") + Self.text("none") + Self.text("attStmt") + [0xA0] + Self.text("authData") + Self.bytes(authData)
        return [
            "id": .string(id), "rawId": .string(id), "type": "public-key",
            "response": [
                "clientDataJSON": .string(clientData(type, fields)), "attestationObject": .string(Base64URL.encode(attestation)),
                "transports": ["internal", "hybrid"],
            ],
            "clientExtensionResults": .object([:]), "authenticatorAttachment": "platform",
        ]
    }

    /// `navigator.credentials.get()`'s `AuthenticationResponseJSON` for request options; the counter goes up by one.
    /// - Parameter options: The server's `PublicKeyCredentialRequestOptionsJSON`.
    /// - Returns: The response.
    mutating func assertion(_ options: JSONValue?) throws -> JSONValue {
        counter += 1
        let client = clientData("webauthn.get", options?.objectValue ?? [:])
        let authData = Array(SHA256.hash(data: Data(rpID.utf8))) + [0x05] + (0..<4).reversed().map { UInt8(truncatingIfNeeded: counter >> ($0 * 8)) }
        let clientBytes = Base64URL.decode(client) ?? []
        let signature = try key.signature(for: Data(authData + Array(SHA256.hash(data: Data(clientBytes))))).derRepresentation
        return [
            "id": .string(id), "rawId": .string(id), "type": "public-key",
            "response": [
                "clientDataJSON": .string(client), "authenticatorData": .string(Base64URL.encode(authData)),
                "signature": .string(Base64URL.encode(Array(signature))), "userHandle": .string(userHandle),
            ],
            "clientExtensionResults": .object([:]), "authenticatorAttachment": "platform",
        ]
    }

    private func clientData(_ type: String, _ options: [String: JSONValue]) -> String {
        let json: JSONValue = [
            "type": .string(type), "challenge": options["challenge"] ?? "", "origin": .string(origin), "crossOrigin": false,
        ]
        return Base64URL.encode(json.serialized())
    }

    private static func head(_ major: UInt8, _ count: Int) -> [UInt8] {
        if count < 24 { return [major << 5 | UInt8(count)] }
        if count < 256 { return [major << 5 | 24, UInt8(count)] }
        return [major << 5 | 25, UInt8(count >> 8), UInt8(count & 0xFF)]
    }

    private static func bytes(_ value: [UInt8]) -> [UInt8] { head(2, value.count) + value }

    private static func text(_ value: String) -> [UInt8] { head(3, value.utf8.count) + Array(value.utf8) }
}
