import Foundation

/// The embedded pool's rules, with the defaults SECURITY.md asks for.
public struct PoolSettings: Sendable {
    /// What a new password must satisfy.
    public var passwordPolicy: PasswordPolicy
    /// Seconds a sign-up confirmation code is valid.
    public var signUpCodeLifetime: TimeInterval
    /// Seconds a password-reset code is valid.
    public var resetCodeLifetime: TimeInterval
    /// How long an SMS code (phone sign-in, adding a number) redeems: 10 minutes.
    public var phoneCodeLifetime: TimeInterval
    /// Wrong guesses a code survives.
    var maxCodeAttempts: Int
    /// How long a refresh token lives after it was issued (each rotation issues a new one).
    public var refreshTokenLifetime: TimeInterval
    /// How long a session lasts after its sign-in, however often its refresh token rotates (the
    /// absolute lifetime); `nil` means ``refreshTokenLifetime``, as Cognito counts a refresh
    /// token's validity from the sign-in.
    public var maxSessionLifetime: TimeInterval?
    /// ``maxSessionLifetime``, or the refresh-token lifetime when it is not set.
    var sessionLifetime: TimeInterval { maxSessionLifetime ?? refreshTokenLifetime }
    /// How long after a rotation the old refresh token still returns the same successor (≤ 60 s).
    public var refreshReuseGrace: TimeInterval
    /// Per-client and per-account request limits.
    public var rateLimits: RateLimitSettings
    /// Product name used in mail.
    public var appName: String

    /// Creates the settings; the defaults are SECURITY.md's.
    /// - Parameters:
    ///   - passwordPolicy: What a new password must satisfy.
    ///   - signUpCodeLifetime: Seconds (24 h).
    ///   - resetCodeLifetime: Seconds (1 h).
    ///   - phoneCodeLifetime: Seconds (10 min).
    ///   - maxCodeAttempts: Wrong guesses a code survives (5); at least 1.
    ///   - refreshTokenLifetime: Seconds (30 days).
    ///   - maxSessionLifetime: The absolute session lifetime in seconds; `nil` uses `refreshTokenLifetime`.
    ///   - refreshReuseGrace: Seconds (10); clamped to 0…60.
    ///   - rateLimits: The request limits.
    ///   - appName: Product name used in mail.
    public init(
        passwordPolicy: PasswordPolicy = PasswordPolicy(),
        signUpCodeLifetime: TimeInterval = 24 * 3600,
        resetCodeLifetime: TimeInterval = 3600,
        phoneCodeLifetime: TimeInterval = 600,
        maxCodeAttempts: Int = 5,
        refreshTokenLifetime: TimeInterval = 30 * 24 * 3600,
        maxSessionLifetime: TimeInterval? = nil,
        refreshReuseGrace: TimeInterval = 10,
        rateLimits: RateLimitSettings = RateLimitSettings(),
        appName: String = "Gatehouse"
    ) {
        self.passwordPolicy = passwordPolicy
        self.signUpCodeLifetime = signUpCodeLifetime
        self.resetCodeLifetime = resetCodeLifetime
        self.phoneCodeLifetime = phoneCodeLifetime
        self.maxCodeAttempts = max(1, maxCodeAttempts)
        self.refreshTokenLifetime = refreshTokenLifetime
        self.maxSessionLifetime = maxSessionLifetime
        self.refreshReuseGrace = min(max(refreshReuseGrace, 0), 60)
        self.rateLimits = rateLimits
        self.appName = appName
    }
}
