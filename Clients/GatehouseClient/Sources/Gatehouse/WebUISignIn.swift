#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))
import AuthenticationServices
import Foundation

/// Sign-in through the server's hosted UI in `ASWebAuthenticationSession`, as Amplify's
/// `signInWithWebUI`: the hosted page (email and password, sign-up, reset), or Google or Apple straight
/// away. PKCE, the state check and the nonce are the request's (``WebUIRequest``).
///
/// ```swift
/// let web = WebUISignIn(client: gatehouse, clientID: "my-app-client", redirectURI: URL(string: "myapp://callback")!)
/// try await web.signIn(provider: .google)
/// ```
@MainActor
public final class WebUISignIn: NSObject, @preconcurrency ASWebAuthenticationPresentationContextProviding {
    /// The client that exchanges the code and keeps the session.
    public let client: GatehouseClient
    /// The app client id (`GATEHOUSE_CLIENT_ID`).
    public let clientID: String
    /// The redirect URI registered in `GATEHOUSE_CALLBACK_URLS`; its scheme ends the browser session.
    public let redirectURI: URL
    private let anchor: @MainActor () -> ASPresentationAnchor
    private var session: ASWebAuthenticationSession?

    /// A helper for `client`.
    ///
    /// - Parameters:
    ///   - client: The client that exchanges the code and keeps the session.
    ///   - clientID: The app client id.
    ///   - redirectURI: A registered redirect URI with the app's custom scheme (`myapp://callback`).
    ///   - anchor: The window to present the browser sheet from; by default a new anchor, which iOS accepts
    ///     (pass your window on macOS).
    public init(
        client: GatehouseClient,
        clientID: String,
        redirectURI: URL,
        anchor: @escaping @MainActor () -> ASPresentationAnchor = { ASPresentationAnchor() }
    ) {
        self.client = client
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.anchor = anchor
    }

    /// Runs the sign-in: a fresh request, the browser sheet, the callback's state check, the exchange.
    ///
    /// - Parameters:
    ///   - provider: The hosted page (default), Google or Apple.
    ///   - scopes: The scopes asked for.
    ///   - prefersEphemeralSession: `true` shares no cookies with Safari, so no single sign-on with other
    ///     apps or a later sign-in (and no "wants to use … to sign in" prompt); `false` (the default) keeps
    ///     the hosted session, so a second sign-in skips the form, as Amplify does.
    /// - Returns: The stored session.
    /// - Throws: ``WebUISignInError`` (cancelled, a refusal, a foreign callback), or ``GatehouseError`` from the exchange.
    @discardableResult
    public func signIn(
        provider: WebUIRequest.Provider = .hostedPage,
        scopes: [String] = ["openid", "email", "profile"],
        prefersEphemeralSession: Bool = false
    ) async throws -> SignInResult {
        let request = WebUIRequest(clientID: clientID, redirectURI: redirectURI, scopes: scopes, provider: provider)
        let callback = try await open(client.webUIAuthorizeURL(for: request), ephemeral: prefersEphemeralSession)
        return try await client.completeWebUISignIn(callback: callback, for: request)
    }

    /// Signs out of the hosted session in the browser (`/logout`, back to `signOutURI`), then out of the client.
    ///
    /// - Parameter signOutURI: A URI registered in `GATEHOUSE_SIGNOUT_URLS`, with the app's scheme.
    /// - Throws: ``WebUISignInError`` when the browser sheet cannot start or is cancelled; the client is
    ///   signed out either way.
    public func signOut(signOutURI: URL) async throws {
        do {
            _ = try await open(client.webUISignOutURL(clientID: clientID, signOutURI: signOutURI), ephemeral: false, scheme: signOutURI.scheme)
        } catch {
            try? await client.signOut()
            throw error
        }
        try await client.signOut()
    }

    private func open(_ url: URL, ephemeral: Bool, scheme: String? = nil) async throws -> URL {
        let callbackScheme = scheme ?? redirectURI.scheme ?? ""
        let callback: URL = try await withCheckedThrowingContinuation { continuation in
            // When start() returns false the completion handler may be called too: whichever comes first resumes.
            let once = ResumeOnce(continuation)
            let session = ASWebAuthenticationSession(url: url, callbackURLScheme: callbackScheme) { url, error in
                if let url {
                    once.resume(with: .success(url))
                } else if let error = error as? ASWebAuthenticationSessionError, error.code == .canceledLogin {
                    once.resume(with: .failure(WebUISignInError.cancelled))
                } else {
                    once.resume(with: .failure(WebUISignInError.couldNotStart))
                }
            }
            session.presentationContextProvider = self
            session.prefersEphemeralWebBrowserSession = ephemeral
            self.session = session
            if !session.start() { once.resume(with: .failure(WebUISignInError.couldNotStart)) }
        }
        session = nil
        return callback
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
