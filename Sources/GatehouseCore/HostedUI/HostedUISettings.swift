import Foundation

/// The hosted UI's configuration: where the authorization server may send a browser back to, and how
/// long its codes and its browser session last.
public struct HostedUISettings: Sendable {
    /// The redirect URIs registered for the app client (`GATEHOUSE_CALLBACK_URLS`), matched exactly.
    public var callbackURLs: Set<String>
    /// Where `/logout` may send the browser (`GATEHOUSE_SIGNOUT_URLS`), matched exactly.
    public var signOutURLs: Set<String>
    /// Seconds an authorization code can be redeemed (5 minutes, as Cognito).
    public var codeLifetime: TimeInterval = 300
    /// Seconds the hosted session's cookie lasts (`GATEHOUSE_HOSTED_SESSION_TTL`, 1 hour by default, as
    /// Cognito's); the session it is bound to may end sooner.
    public var sessionLifetime: TimeInterval
    /// Seconds a page's form (its CSRF binding and the request it carries) stays good: 30 minutes.
    public var formLifetime: TimeInterval = 1800

    /// Creates the settings.
    /// - Parameters:
    ///   - callbackURLs: The registered redirect URIs.
    ///   - signOutURLs: The registered sign-out URIs.
    ///   - sessionLifetime: Seconds the hosted session's cookie lasts.
    public init(callbackURLs: Set<String>, signOutURLs: Set<String>, sessionLifetime: TimeInterval = 3600) {
        self.callbackURLs = callbackURLs
        self.signOutURLs = signOutURLs
        self.sessionLifetime = sessionLifetime
    }
}
