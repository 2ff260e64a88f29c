/// Why `/oauth2/authorize` (or a page carrying its request) refused a request, and so how the refusal
/// is shown: RFC 6749 §4.1.2.1 forbids redirecting when the client or the redirect URI cannot be
/// trusted, so those two are an error page; every other refusal goes back to the registered redirect
/// URI with `error`, `error_description` and the client's `state`.
public enum AuthorizationRefusal: Error, Sendable, Equatable {
    /// The client id is missing or not this server's app client: shown as a page, never a redirect.
    case unknownClient(String)
    /// The redirect URI is missing or not in `GATEHOUSE_CALLBACK_URLS` (exact match): a page, never a redirect.
    case unregisteredRedirect(String)
    /// A sign-in at Google or Apple came back with a state this browser did not start (forged, replayed,
    /// expired, or from another browser): there is no trustworthy request to return to, so a page.
    case federationState(String)
    /// A refusal the client may see on its registered redirect URI.
    case redirect(to: String, error: String, description: String, state: String?)

    /// The text an error page shows, or the description sent back.
    public var message: String {
        switch self {
        case .unknownClient(let message), .unregisteredRedirect(let message), .federationState(let message): message
        case .redirect(_, _, let description, _): description
        }
    }
}
