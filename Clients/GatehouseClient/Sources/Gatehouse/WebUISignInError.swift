import Foundation

/// Why a sign-in through the hosted UI did not finish (beyond the ``GatehouseError`` the code exchange
/// itself may throw).
public enum WebUISignInError: Error, Sendable, Equatable, LocalizedError {
    /// The user closed the browser sheet.
    case cancelled
    /// The server refused the request or the sign-in (the callback's `error`, e.g. `access_denied`,
    /// `login_required`, `invalid_scope`), with its description for the developer.
    case failed(String, description: String?)
    /// The callback's `state` is not the request's: it answers another request, or was forged. Nothing
    /// was exchanged.
    case stateMismatch
    /// The browser called back with something that is not an answer to the request.
    case invalidCallback
    /// The browser session could not start (no window to present from, for one).
    case couldNotStart

    /// Words for people.
    public var errorDescription: String? {
        switch self {
        case .cancelled, .failed("access_denied", _): "Sign-in was cancelled."
        case .failed, .stateMismatch, .invalidCallback: "Sign-in didn't work. Please try again."
        case .couldNotStart: "Sign-in couldn't start. Please try again."
        }
    }
}
