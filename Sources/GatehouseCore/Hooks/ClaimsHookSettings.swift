import Foundation

/// How the custom-claims hook is used (`GATEHOUSE_CLAIMS_HOOK_*`).
public struct ClaimsHookSettings: Sendable, Equatable {
    /// What a timeout, an error status or a malformed answer does.
    public enum Failure: String, Sendable {
        /// No tokens: the sign-in or refresh answers 503 `upstream_unavailable` (the default).
        case deny
        /// Tokens without extra claims.
        case allow
    }

    /// How long to wait for the answer.
    public var timeout: Duration
    /// What a failure does.
    public var failure: Failure
    /// How long a user's answer is reused for refreshes (0: never).
    public var cacheTTL: TimeInterval
    /// The most bytes the claims may take, serialised (both tokens together); a larger answer is malformed.
    public var maxClaimBytes: Int

    /// Creates the settings.
    /// - Parameters:
    ///   - timeout: How long to wait for the answer.
    ///   - failure: What a failure does.
    ///   - cacheTTL: How long a user's answer is reused for refreshes (0: never).
    ///   - maxClaimBytes: The most bytes the claims may take.
    public init(timeout: Duration = .milliseconds(1500), failure: Failure = .deny, cacheTTL: TimeInterval = 0, maxClaimBytes: Int = 4096) {
        self.timeout = timeout
        self.failure = failure
        self.cacheTTL = cacheTTL
        self.maxClaimBytes = maxClaimBytes
    }
}
