import Foundation
import Logging

/// What the HTTP layer asks of whoever holds the users: the embedded pool or Amazon Cognito.
/// Inputs are plain values (no requests); every error is a ``GatehouseError``.
public protocol IdentityProvider: Sendable {
    /// `embedded` or `cognito`.
    var name: String { get }

    func signUp(email: String, password: String, fullName: String?, client: ClientInfo, logger: Logger) async throws -> SignUpResult
    func confirmSignUp(email: String, code: String, client: ClientInfo, logger: Logger) async throws
    func resendConfirmationCode(email: String, client: ClientInfo, logger: Logger) async throws -> CodeDelivery
    func signIn(email: String, password: String, client: ClientInfo, logger: Logger) async throws -> AuthTokens
    func refresh(refreshToken: String, client: ClientInfo, logger: Logger) async throws -> AuthTokens
    func signOut(refreshToken: String, logger: Logger) async throws
    func signOutEverywhere(principal: Principal, logger: Logger) async throws
    func forgotPassword(email: String, client: ClientInfo, logger: Logger) async throws -> CodeDelivery
    func resetPassword(email: String, code: String, newPassword: String, client: ClientInfo, logger: Logger) async throws
    func changePassword(principal: Principal, currentPassword: String, newPassword: String, client: ClientInfo, logger: Logger) async throws

    /// Signs in (or up) a user proven by a verified Google or Apple ID token; `isNewUser` is set.
    func signInWithProvider(_ signIn: ProviderSignIn, client: ClientInfo, logger: Logger) async throws -> AuthTokens

    /// Verifies a bearer access token and that its session is live.
    func authenticate(bearer: String, logger: Logger) async throws -> Principal
    /// What the provider knows about the user, to seed the just-in-time profile.
    func profileSeed(for principal: Principal, logger: Logger) async throws -> ProfileSeed
    /// Deletes the user and everything of theirs: sessions, codes, identities, the app profile.
    func deleteAccount(principal: Principal, logger: Logger) async throws
    /// Whether storage (and the upstream, for Cognito) answers.
    func checkReady() async throws
}

/// The user facts a just-in-time profile starts from.
public struct ProfileSeed: Sendable, Equatable {
    public var email: String?
    public var emailVerified: Bool
    public var name: String?

    public init(email: String?, emailVerified: Bool, name: String?) {
        self.email = email
        self.emailVerified = emailVerified
        self.name = name
    }
}

/// Sign-in outcomes for metrics, without who or why in detail.
public protocol AuthEventObserver: Sendable {
    /// `method` is `password`, `refresh`, `google`, `apple`, `handoff`; `outcome` a short stable word
    /// (`success`, `invalid_credentials`, `not_confirmed`, `throttled`, `invalid_token`, `invalid_grant`, `error`).
    func signInAttempt(method: String, outcome: String)
}

public struct NoAuthEvents: AuthEventObserver {
    public init() {}
    public func signInAttempt(method: String, outcome: String) {}
}

extension AuthEventObserver {
    /// Runs `body`, reporting its outcome under `method`.
    public func observing<T>(_ method: String, _ body: () async throws -> T) async throws -> T {
        do {
            let value = try await body()
            signInAttempt(method: method, outcome: "success")
            return value
        } catch let error as GatehouseError {
            let outcome: String
            switch error.code {
            case .tooManyRequests: outcome = "throttled"
            case .invalidCredentials, .userNotConfirmed, .invalidToken, .invalidGrant, .invalidRequest, .providerDisabled:
                outcome = error.code == .userNotConfirmed ? "not_confirmed" : error.code.rawValue
            default: outcome = "error"
            }
            signInAttempt(method: method, outcome: outcome)
            throw error
        } catch {
            signInAttempt(method: method, outcome: "error")
            throw error
        }
    }
}
