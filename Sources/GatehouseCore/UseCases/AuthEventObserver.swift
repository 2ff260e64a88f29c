/// Sign-in outcomes for metrics, without who or why in detail.
public protocol AuthEventObserver: Sendable {
    /// Counts one attempt.
    /// - Parameters:
    ///   - method: `password`, `refresh`, `google`, `apple` or `handoff`.
    ///   - outcome: A short stable word (`success`, `invalid_credentials`, `not_confirmed`, `throttled`,
    ///     `invalid_token`, `invalid_grant`, `error`).
    func signInAttempt(method: String, outcome: String)
    /// Records a refused attempt durably (the audit log); by default nothing.
    /// - Parameters:
    ///   - method: As for ``signInAttempt(method:outcome:)``.
    ///   - outcome: The refusal's reason class.
    func signInRefused(method: String, outcome: String) async
}

/// Counts nothing (tests, tools).
public struct NoAuthEvents: AuthEventObserver {
    /// Creates the observer.
    public init() {}

    /// Ignores the attempt.
    /// - Parameters:
    ///   - method: Unused.
    ///   - outcome: Unused.
    public func signInAttempt(method: String, outcome: String) {}
}

extension AuthEventObserver {
    /// Records nothing: only the auditing observer writes refusals.
    /// - Parameters:
    ///   - method: Unused.
    ///   - outcome: Unused.
    public func signInRefused(method: String, outcome: String) async {}

    /// Runs `body`, reporting its outcome under `method`.
    /// - Parameters:
    ///   - method: The sign-in method the outcome is counted under.
    ///   - body: The attempt.
    /// - Returns: What `body` returns.
    /// - Throws: Whatever `body` throws (counted by its code first).
    func observing<T>(_ method: String, _ body: () async throws -> T) async throws -> T {
        do {
            let value = try await body()
            signInAttempt(method: method, outcome: "success")
            return value
        } catch let error as GatehouseError {
            let outcome: String
            switch error.code {
            case .tooManyRequests: outcome = "throttled"
            case .mfaRequired: outcome = "mfa_required"
            case .userDisabled: outcome = "user_disabled"
            case .invalidCredentials, .userNotConfirmed, .invalidToken, .invalidGrant, .invalidRequest, .providerDisabled:
                outcome = error.code == .userNotConfirmed ? "not_confirmed" : error.code.rawValue
            default: outcome = "error"
            }
            signInAttempt(method: method, outcome: outcome)
            await signInRefused(method: method, outcome: outcome)
            throw error
        } catch {
            signInAttempt(method: method, outcome: "error")
            await signInRefused(method: method, outcome: "error")
            throw error
        }
    }
}
