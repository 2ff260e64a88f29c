import Foundation
import Logging

/// `POST /auth/google` and `POST /auth/apple`: verify the provider's ID token, then let the identity
/// provider find or create the user. Tokens that fail verification count against the client's
/// address, so nobody can grind through forged tokens.
public struct SocialSignInService: Sendable {
    public let google: ProviderTokenVerifier
    public let apple: ProviderTokenVerifier
    let provider: any IdentityProvider
    let limiter: RateLimiter
    let events: any AuthEventObserver

    public init(google: ProviderTokenVerifier, apple: ProviderTokenVerifier, provider: any IdentityProvider, limiter: RateLimiter, events: any AuthEventObserver) {
        self.google = google
        self.apple = apple
        self.provider = provider
        self.limiter = limiter
        self.events = events
    }

    public func signInWithGoogle(idToken: String, nonce: String?, fullName: String?, client: ClientInfo, logger: Logger) async throws -> AuthTokens {
        try await events.observing("google") {
            let identity = try await verify(idToken, nonce: nonce, with: google, client: client)
            return try await provider.signInWithProvider(
                ProviderSignIn(identity: identity, nonce: nonce, fullNameHint: fullName), client: client, logger: logger)
        }
    }

    public func signInWithApple(identityToken: String, authorizationCode: String?, nonce: String?, fullName: String?, redirectURI: String? = nil, client: ClientInfo, logger: Logger) async throws -> AuthTokens {
        try await events.observing("apple") {
            let identity = try await verify(identityToken, nonce: nonce, with: apple, client: client)
            return try await provider.signInWithProvider(
                ProviderSignIn(identity: identity, nonce: nonce, fullNameHint: fullName, appleAuthorizationCode: authorizationCode, appleRedirectURI: redirectURI),
                client: client, logger: logger)
        }
    }

    /// Verifies, counting failures per client address. A client past its limit gets 429 for further
    /// failed tokens. The check runs only when verification fails: that costs microseconds (no
    /// network: keys are cached), and a valid token cannot be forged, so the success path needs no
    /// database read.
    public func verify(_ token: String, nonce: String?, with verifier: ProviderTokenVerifier, client: ClientInfo) async throws -> VerifiedIdentity {
        do {
            return try await verifier.verify(token, rawNonce: nonce)
        } catch let error as GatehouseError where error.code == .invalidToken {
            let bucket = limiter.bucket(limiter.settings.exchangePerClient, client: client)
            try await limiter.ensureAllowed([bucket])
            try await limiter.recordFailure([bucket])
            throw error
        }
    }
}
