import Foundation

/// The embedded pool's rules, with the defaults SECURITY.md asks for.
public struct PoolSettings: Sendable {
    public var passwordPolicy: PasswordPolicy
    public var signUpCodeLifetime: TimeInterval
    public var resetCodeLifetime: TimeInterval
    /// Wrong guesses a code survives.
    public var maxCodeAttempts: Int
    /// How long a refresh token lives after it was issued (each rotation issues a new one).
    public var refreshTokenLifetime: TimeInterval
    /// How long a session lasts after its sign-in, however often its refresh token rotates (the
    /// absolute lifetime); `nil` means ``refreshTokenLifetime``, as Cognito counts a refresh
    /// token's validity from the sign-in.
    public var maxSessionLifetime: TimeInterval?
    /// ``maxSessionLifetime``, or the refresh-token lifetime when it is not set.
    public var sessionLifetime: TimeInterval { maxSessionLifetime ?? refreshTokenLifetime }
    /// How long after a rotation the old refresh token still returns the same successor (≤ 60 s).
    public var refreshReuseGrace: TimeInterval
    public var rateLimits: RateLimitSettings
    /// Product name used in mail.
    public var appName: String

    public init(
        passwordPolicy: PasswordPolicy = PasswordPolicy(),
        signUpCodeLifetime: TimeInterval = 24 * 3600,
        resetCodeLifetime: TimeInterval = 3600,
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
        self.maxCodeAttempts = max(1, maxCodeAttempts)
        self.refreshTokenLifetime = refreshTokenLifetime
        self.maxSessionLifetime = maxSessionLifetime
        self.refreshReuseGrace = min(max(refreshReuseGrace, 0), 60)
        self.rateLimits = rateLimits
        self.appName = appName
    }
}
