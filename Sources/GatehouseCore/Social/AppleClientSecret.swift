import Crypto
import Foundation
import GatehouseInfrastructure

/// Apple's credentials for its token API (`/auth/token`, `/auth/revoke`): the team, the key id and
/// the `.p8` private key of a Sign in with Apple key. The client secret is an ES256 JWT we sign.
public struct AppleCredentials: Sendable {
    public var teamID: String
    public var keyID: String
    public var privateKey: P256.Signing.PrivateKey

    public init(teamID: String, keyID: String, privateKeyPEM: String) throws {
        self.teamID = teamID
        self.keyID = keyID
        do {
            self.privateKey = try P256.Signing.PrivateKey(pemRepresentation: privateKeyPEM)
        } catch {
            throw GatehouseError.internalError(cause: "the Apple private key is not a PEM P-256 key (.p8)")
        }
    }

    public init(teamID: String, keyID: String, privateKey: P256.Signing.PrivateKey) {
        self.teamID = teamID
        self.keyID = keyID
        self.privateKey = privateKey
    }

    /// The `client_secret` for `clientID` (a bundle id or the services id), valid for five minutes.
    public func clientSecret(clientID: String, now: Date) throws -> String {
        let iat = now.epochSeconds
        return try CompactJWS.encode(
            header: ["alg": "ES256", "kid": .string(keyID)],
            claims: ["iss": .string(teamID), "iat": .number(Double(iat)), "exp": .number(Double(iat + 300)),
                     "aud": "https://appleid.apple.com", "sub": .string(clientID)]
        ) { input in
            Array(try privateKey.signature(for: input).rawRepresentation)
        }
    }
}

/// Apple's token API, as the core uses it. The server implements it over HTTPS.
public protocol AppleTokenAPI: Sendable {
    /// Exchanges an authorization code; returns Apple's refresh token (if it sent one).
    func exchange(code: String, clientID: String, redirectURI: String?) async throws -> String?
    /// Revokes a refresh token. Throws `upstream_unavailable` when Apple cannot be reached.
    func revoke(refreshToken: String, clientID: String) async throws
}
