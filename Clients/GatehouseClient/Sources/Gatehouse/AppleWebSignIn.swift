#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))
import AuthenticationServices
import Foundation

/// Sign in with Apple through the browser (the server's `/auth/apple/authorize` with PKCE), for iOS and
/// Mac Catalyst apps that cannot use the native button, or want the same flow as Android and the web.
///
/// ```swift
/// let apple = AppleWebSignIn(client: gatehouse, callbackScheme: "myapp")
/// let result = try await apple.signIn()
/// ```
@MainActor
public final class AppleWebSignIn: NSObject, @preconcurrency ASWebAuthenticationPresentationContextProviding {
    /// The client that redeems the hand-off.
    public let client: GatehouseClient
    /// The app's URL scheme, as the server's `GATEHOUSE_APP_URL_SCHEME`.
    public let callbackScheme: String
    private let anchor: @MainActor () -> ASPresentationAnchor
    private var session: ASWebAuthenticationSession?

    /// A helper for `client`, calling back on `callbackScheme`.
    ///
    /// - Parameters:
    ///   - client: The client that redeems the hand-off and keeps the session.
    ///   - callbackScheme: The scheme the server sends the browser to (`GATEHOUSE_APP_URL_SCHEME`).
    ///   - anchor: The window to present the browser sheet from; by default a new anchor, which iOS accepts
    ///     (pass your window on macOS).
    public init(client: GatehouseClient, callbackScheme: String, anchor: @escaping @MainActor () -> ASPresentationAnchor = { ASPresentationAnchor() })
    {
        self.client = client
        self.callbackScheme = callbackScheme
        self.anchor = anchor
    }

    /// Runs the flow: a fresh PKCE pair, the browser sheet, the callback, and the hand-off.
    ///
    /// - Parameters:
    ///   - nonce: A nonce to bind into Apple's token; the server makes one when `nil`.
    ///   - prefersEphemeralSession: Whether the sheet shares no cookies with Safari (the default; the flow's
    ///     own cookie lives only for the flow).
    /// - Returns: The stored session and whether the account was just created.
    /// - Throws: ``AppleWebSignInError`` (cancelled, a reported failure), or ``GatehouseError`` from the hand-off.
    @discardableResult
    public func signIn(nonce: Nonce? = nil, prefersEphemeralSession: Bool = true) async throws -> SignInResult {
        let pkce = PKCE()
        let url = client.appleAuthorizeURL(pkce: pkce, nonce: nonce)
        let callback: URL = try await withCheckedThrowingContinuation { continuation in
            // When start() returns false the completion handler may be called too: whichever comes first resumes.
            let once = ResumeOnce(continuation)
            let session = ASWebAuthenticationSession(url: url, callbackURLScheme: callbackScheme) { url, error in
                if let url {
                    once.resume(with: .success(url))
                } else if let error = error as? ASWebAuthenticationSessionError, error.code == .canceledLogin {
                    once.resume(with: .failure(AppleWebSignInError.cancelled))
                } else {
                    once.resume(with: .failure(AppleWebSignInError.couldNotStart))
                }
            }
            session.presentationContextProvider = self
            session.prefersEphemeralWebBrowserSession = prefersEphemeralSession
            self.session = session
            if !session.start() { once.resume(with: .failure(AppleWebSignInError.couldNotStart)) }
        }
        session = nil
        switch AppleCallback.parse(callback, scheme: callbackScheme) {
        case .code(let code): return try await client.redeemHandoff(code: code, codeVerifier: pkce.verifier)
        case .error(let reason): throw AppleWebSignInError.failed(reason)
        case nil: throw AppleWebSignInError.invalidCallback
        }
    }

    /// The window the browser sheet is presented from.
    ///
    /// - Parameter session: The browser session asking.
    /// - Returns: The anchor given at init.
    public func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
        anchor()
    }
}
#endif
