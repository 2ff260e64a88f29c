import Foundation

/// The end of the Apple web flow: `<scheme>://apple-callback?code=<hand-off>` or `?error=<reason>`, as the
/// server's `/auth/apple/callback` sends the browser. Parsing is separate from the browser session so it is
/// the same (and tested) on every platform.
public enum AppleCallback {
    /// What a callback URL says.
    public enum Outcome: Sendable, Equatable {
        /// A hand-off code for ``GatehouseClient/redeemHandoff(code:codeVerifier:)``.
        case code(String)
        /// The flow failed; the server's reason (`access_denied` when the user cancelled at Apple,
        /// `invalid_state` when the flow finished in another browser than the one that started it …).
        case error(String)
    }

    /// Reads a callback URL.
    ///
    /// - Parameters:
    ///   - url: The URL the browser session called back with.
    ///   - scheme: The app's scheme (`GATEHOUSE_APP_URL_SCHEME`), compared without case.
    /// - Returns: The code or the error, or `nil` when `url` is not `<scheme>://apple-callback` with one of them.
    public static func parse(_ url: URL, scheme: String) -> Outcome? {
        guard url.scheme?.lowercased() == scheme.lowercased(), url.host?.lowercased() == "apple-callback",
            let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems
        else { return nil }
        if let error = items.first(where: { $0.name == "error" })?.value { return .error(error.isEmpty ? "unknown" : error) }
        if let code = items.first(where: { $0.name == "code" })?.value, !code.isEmpty { return .code(code) }
        return nil
    }
}

/// Why the Apple web flow did not sign in (beyond the ``GatehouseError`` the hand-off itself may throw).
public enum AppleWebSignInError: Error, Sendable, Equatable, LocalizedError {
    /// The user closed the browser sheet.
    case cancelled
    /// The server or Apple reported a failure (the callback's `error`).
    case failed(String)
    /// The browser called back with something that is not a Gatehouse Apple callback.
    case invalidCallback
    /// The browser session could not start (no window to present from, for one).
    case couldNotStart

    /// Words for people.
    public var errorDescription: String? {
        switch self {
        case .cancelled: "Sign in with Apple was cancelled."
        case .failed(let reason) where reason == "access_denied": "Sign in with Apple was cancelled."
        case .failed: "Sign in with Apple didn't work. Please try again."
        case .invalidCallback, .couldNotStart: "Sign in with Apple couldn't start. Please try again."
        }
    }
}
