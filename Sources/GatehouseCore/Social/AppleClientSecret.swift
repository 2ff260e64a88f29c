import Crypto
import Foundation
import GatehouseInfrastructure

/// Apple's credentials for its token API (`/auth/token`, `/auth/revoke`): the team, the key id and
/// the `.p8` private key of a Sign in with Apple key. The client secret is an ES256 JWT we sign.
public struct AppleCredentials: Sendable {
    /// The Apple Developer team id: the client secret's `iss`.
    public var teamID: String
    /// The Sign in with Apple key's id: the client secret's `kid`.
    public var keyID: String
    /// The key's P-256 private half.
    public var privateKey: P256.Signing.PrivateKey

    /// Creates the credentials from the `.p8` file's text.
    /// - Parameters:
    ///   - teamID: The Apple Developer team id.
    ///   - keyID: The key's id.
    ///   - privateKeyPEM: The `.p8` file's PEM text.
    /// - Throws: `internal_error` when the PEM is not a P-256 private key (the cause does not echo it).
    public init(teamID: String, keyID: String, privateKeyPEM: String) throws {
        self.teamID = teamID
        self.keyID = keyID
        do {
            self.privateKey = try P256.Signing.PrivateKey(pemRepresentation: privateKeyPEM)
        } catch {
            throw GatehouseError.internalError(cause: "the Apple private key is not a PEM P-256 key (.p8)")
        }
    }

    /// Creates the credentials from a parsed key.
    /// - Parameters:
    ///   - teamID: The Apple Developer team id.
    ///   - keyID: The key's id.
    ///   - privateKey: The P-256 private key.
    public init(teamID: String, keyID: String, privateKey: P256.Signing.PrivateKey) {
        self.teamID = teamID
        self.keyID = keyID
        self.privateKey = privateKey
    }

    /// The `client_secret` for `clientID` (a bundle id or the services id), valid for five minutes.
    /// - Parameters:
    ///   - clientID: The client the secret is for: its `sub`.
    ///   - now: Its `iat`; `exp` is 300 s later.
    /// - Returns: The ES256 JWT.
    /// - Throws: The signer's error.
    public func clientSecret(clientID: String, now: Date) throws -> String {
        let iat = now.epochSeconds
        return try CompactJWS.encode(
            header: ["alg": "ES256", "kid": .string(keyID)],
            claims: [
                "iss": .string(teamID), "iat": .number(Double(iat)), "exp": .number(Double(iat + 300)),
                "aud": "https://appleid.apple.com", "sub": .string(clientID),
            ]
        ) { input in
            Array(try privateKey.signature(for: input).rawRepresentation)
        }
    }
}

/// Apple's token API, as the core uses it. The server implements it over HTTPS.
public protocol AppleTokenAPI: Sendable {
    /// Exchanges an authorization code; returns Apple's refresh token and identity token (if sent).
    func exchange(code: String, clientID: String, redirectURI: String?) async throws -> AppleTokenGrant
    /// Revokes a refresh token. Throws `upstream_unavailable` when Apple cannot be reached.
    func revoke(refreshToken: String, clientID: String) async throws
}
