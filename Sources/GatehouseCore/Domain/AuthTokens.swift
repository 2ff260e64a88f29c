import Foundation

/// What a successful sign-in, refresh or exchange returns.
public struct AuthTokens: Sendable, Equatable {
    public var idToken: String
    public var accessToken: String
    public var refreshToken: String
    public var expiresIn: Int
    /// Set for social sign-in and the Apple hand-off; `nil` elsewhere.
    public var isNewUser: Bool?

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
    public var medium: String
    public var destination: String

    public init(destination: String) {
        self.medium = "EMAIL"
        self.destination = destination
    }
}

/// The answer to a sign-up: identical in shape for new and already-registered addresses.
public struct SignUpResult: Sendable, Equatable {
    public var userSub: String
    public var userConfirmed: Bool
    public var codeDelivery: CodeDelivery

    public init(userSub: String, userConfirmed: Bool, codeDelivery: CodeDelivery) {
        self.userSub = userSub
        self.userConfirmed = userConfirmed
        self.codeDelivery = codeDelivery
    }
}

/// The caller of a protected endpoint, from a verified access token and a live session.
public struct Principal: Sendable, Equatable {
    public var sub: String
    public var username: String
    public var sessionID: String
    public var clientID: String
    public var scope: String
    /// The bearer token itself, for providers (Cognito) whose APIs take it.
    public var accessToken: String

    public init(sub: String, username: String, sessionID: String, clientID: String, scope: String, accessToken: String) {
        self.sub = sub
        self.username = username
        self.sessionID = sessionID
        self.clientID = clientID
        self.scope = scope
        self.accessToken = accessToken
    }
}
