import Foundation

/// Why the system's passkey sheet (``PasskeyAuthorization``, on iOS, macOS and visionOS) gave no passkey; the calls
/// to the server around it throw ``GatehouseError`` as usual.
public enum PasskeyAuthorizationError: Error, Sendable, Equatable, LocalizedError {
    /// The user closed the sheet (or had no passkey to offer and dismissed it). Show nothing.
    case cancelled
    /// The system refused the request, with its reason for the developer: most often the app's Associated Domains
    /// lack `webcredentials:<RP id>`, or the RP id's host does not serve the app in its
    /// `/.well-known/apple-app-site-association`.
    case failed(String)
    /// The system answered with something that is not a passkey of the kind asked for.
    case invalidCredential
    /// Another passkey request of this helper is still showing its sheet.
    case busy

    /// Words for people.
    public var errorDescription: String? {
        switch self {
        case .cancelled: "Cancelled."
        case .failed, .invalidCredential: "The passkey couldn't be used. Please try again."
        case .busy: "A passkey request is already open."
        }
    }
}
