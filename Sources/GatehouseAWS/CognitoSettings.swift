import Foundation

/// Where the Cognito user pool is and how Gatehouse uses it.
public struct CognitoSettings: Sendable, Equatable {
    public var userPoolID: String
    /// The public app client (no secret) the apps sign in through.
    public var clientID: String
    public var region: String
    /// The API endpoint; an emulator's URL in tests. Default `https://cognito-idp.<region>.amazonaws.com`.
    public var endpoint: String
    /// The pool's key set. Default: the issuer's `/.well-known/jwks.json`.
    public var jwksURL: String
    /// Refresh with `GetTokensFromRefreshToken` (the app client has refresh-token rotation on), so each
    /// refresh returns a new refresh token; otherwise `REFRESH_TOKEN_AUTH`, which keeps the old one.
    public var refreshRotation: Bool
    /// Accept Cognito's ID tokens (`aud` = the client id) as bearer tokens (`GATEHOUSE_ACCEPT_ID_TOKENS`).
    public var acceptIDTokens = false
    /// How long our record of a refresh token is kept (the app client's refresh-token validity).
    public var refreshTokenLifetime: TimeInterval

    public init(
        userPoolID: String,
        clientID: String,
        region: String? = nil,
        endpoint: String? = nil,
        jwksURL: String? = nil,
        refreshRotation: Bool = false,
        refreshTokenLifetime: TimeInterval = 30 * 86_400
    ) {
        let region = region ?? Self.region(fromPoolID: userPoolID) ?? "us-east-1"
        self.userPoolID = userPoolID
        self.clientID = clientID
        self.region = region
        self.endpoint = endpoint ?? "https://cognito-idp.\(region).amazonaws.com"
        self.jwksURL = jwksURL ?? "https://cognito-idp.\(region).amazonaws.com/\(userPoolID)/.well-known/jwks.json"
        self.refreshRotation = refreshRotation
        self.refreshTokenLifetime = refreshTokenLifetime
    }

    /// The issuer of the pool's tokens: always the AWS URL, also behind an emulator.
    public var issuer: String { "https://cognito-idp.\(region).amazonaws.com/\(userPoolID)" }

    /// `us-east-1_AbC` → `us-east-1`.
    public static func region(fromPoolID poolID: String) -> String? {
        guard let underscore = poolID.firstIndex(of: "_") else { return nil }
        let region = poolID[..<underscore]
        return region.isEmpty ? nil : String(region)
    }
}
