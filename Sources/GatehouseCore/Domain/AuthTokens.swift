import Foundation

/// What a successful sign-in, refresh or exchange returns.
public struct AuthTokens: Sendable, Equatable {
    /// The ID token: an RS256 JWT shaped like Cognito's (`token_use: "id"`), or Cognito's own.
    public var idToken: String
    /// The access token: an RS256 JWT (`token_use: "access"`) whose `origin_jti` names the session.
    public var accessToken: String
    /// The opaque refresh token (`ghr1.` prefix with the embedded pool); single use, rotated on every refresh.
    public var refreshToken: String
    /// The access token's lifetime in seconds (`expires_in`).
    public var expiresIn: Int
    /// Set for social sign-in and the Apple hand-off; `nil` elsewhere.
    public var isNewUser: Bool?

    /// A token set as the client receives it.
    /// - Parameters:
    ///   - idToken: The ID token.
    ///   - accessToken: The access token.
    ///   - refreshToken: The refresh token.
    ///   - expiresIn: The access token's lifetime in seconds.
    ///   - isNewUser: Whether a social sign-in created the account; `nil` outside social sign-in.
    public init(idToken: String, accessToken: String, refreshToken: String, expiresIn: Int, isNewUser: Bool? = nil) {
        self.idToken = idToken
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.isNewUser = isNewUser
    }
}

/// Where a code was sent, masked (`a***@e***.com`).
public struct CodeDelivery: Sendable, Equatable {
    /// Always `EMAIL` (Cognito's `DeliveryMedium`); codes go by mail only.
    public var medium: String
    /// The masked address, so the answer confirms the destination without disclosing it.
    public var destination: String

    /// A mail delivery.
    /// - Parameter destination: The address already masked (``EmailAddress/masked``); never the clear address.
    public init(destination: String) {
        self.medium = "EMAIL"
        self.destination = destination
    }
}

/// The answer to a sign-up: identical in shape for new and already-registered addresses.
public struct SignUpResult: Sendable, Equatable {
    /// The new user's `sub`; for an address already registered, a fresh random UUID that names no account.
    public var userSub: String
    /// `false` with the embedded pool (every sign-up awaits its code); Cognito's `UserConfirmed` otherwise.
    public var userConfirmed: Bool
    /// Where the confirmation code went, masked.
    public var codeDelivery: CodeDelivery

    /// A sign-up answer.
    /// - Parameters:
    ///   - userSub: The new user's `sub` (or a random decoy).
    ///   - userConfirmed: Whether the account is usable without a code.
    ///   - codeDelivery: Where the code went, masked.
    public init(userSub: String, userConfirmed: Bool, codeDelivery: CodeDelivery) {
        self.userSub = userSub
        self.userConfirmed = userConfirmed
        self.codeDelivery = codeDelivery
    }
}

/// The caller of a protected endpoint, from a verified access token and a live session.
public struct Principal: Sendable, Equatable {
    /// The user's subject (`sub` claim).
    public var sub: String
    /// The `username` claim (the `sub` when the token has none).
    public var username: String
    /// The session the token belongs to (its `origin_jti`), already checked live.
    public var sessionID: String
    /// The app client the token was issued to (`client_id` claim).
    public var clientID: String
    /// The token's space-separated `scope` claim; empty when absent.
    public var scope: String
    /// The bearer token itself, for providers (Cognito) whose APIs take it.
    public var accessToken: String

    /// A verified caller.
    /// - Parameters:
    ///   - sub: The user's subject.
    ///   - username: The `username` claim.
    ///   - sessionID: The live session's id.
    ///   - clientID: The app client id.
    ///   - scope: The `scope` claim.
    ///   - accessToken: The bearer token; treat as a secret (never log it).
    public init(sub: String, username: String, sessionID: String, clientID: String, scope: String, accessToken: String) {
        self.sub = sub
        self.username = username
        self.sessionID = sessionID
        self.clientID = clientID
        self.scope = scope
        self.accessToken = accessToken
    }
}
