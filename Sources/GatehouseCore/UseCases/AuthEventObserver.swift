/// Sign-in outcomes for metrics, without who or why in detail.
public protocol AuthEventObserver: Sendable {
    /// Counts one attempt.
    /// - Parameters:
    ///   - method: `password`, `refresh`, `google`, `apple` or `handoff`.
    ///   - outcome: A short stable word (`success`, `invalid_credentials`, `not_confirmed`, `throttled`,
    ///     `invalid_token`, `invalid_grant`, `error`).
    func signInAttempt(method: String, outcome: String)
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
