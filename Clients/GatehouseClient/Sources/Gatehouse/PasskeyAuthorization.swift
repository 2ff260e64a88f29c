#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))
import AuthenticationServices
import Foundation

/// Passkeys through the system sheet (`ASAuthorizationController` with `ASAuthorizationPlatformPublicKeyCredentialProvider`):
/// registering one for the signed-in user and signing in with one. The options come from the server, the sheet
/// makes the credential, and the raw answer goes back through ``GatehouseClient``.
///
/// The app needs `webcredentials:<RP id>` in its Associated Domains, and the RP id's host must serve the server's
/// `/.well-known/apple-app-site-association` naming the app (`GATEHOUSE_PASSKEY_APPLE_APP_IDS`).
///
/// ```swift
/// let passkeys = PasskeyAuthorization(client: gatehouse)
/// try await passkeys.signIn()                  // the sheet offers the passkeys saved for the domain
/// try await passkeys.register(name: "iPhone")  // signed in: adds one
/// ```
@MainActor
public final class PasskeyAuthorization: NSObject, @preconcurrency ASAuthorizationControllerDelegate,
    @preconcurrency ASAuthorizationControllerPresentationContextProviding
{
    /// What the sheet answered, in the SDK's own (sendable) terms.
    private enum Outcome: Sendable {
        case registration(PasskeyRegistration)
        case assertion(PasskeyAssertion)
    }

    /// The client that fetches the options, posts the answer and keeps the session.
    public let client: GatehouseClient
    private let anchor: @MainActor () -> ASPresentationAnchor
    private var controller: ASAuthorizationController?
    private var pending: ResumeOnce<Outcome>?

    /// A helper for `client`.
    ///
    /// - Parameters:
    ///   - client: The client that talks to the server and keeps the session.
    ///   - anchor: The window to present the sheet from; by default a new anchor, which iOS accepts (pass your window
    ///     on macOS).
    public init(client: GatehouseClient, anchor: @escaping @MainActor () -> ASPresentationAnchor = { ASPresentationAnchor() }) {
        self.client = client
        self.anchor = anchor
    }

    /// Signs in with a passkey: the options, the system sheet, the server's check; the session is stored as with
    /// every sign-in (``SignInMethod/passkey``). A passkey never asks for a second factor.
    ///
    /// - Parameter email: The address the user typed, to offer only that account's passkeys; `nil` offers every
    ///   passkey saved for the domain.
    /// - Returns: The stored session.
    /// - Throws: ``PasskeyAuthorizationError`` (``PasskeyAuthorizationError/cancelled`` when the user closes the sheet),
    ///   or ``GatehouseError`` from the server (`invalidCredentials` for a passkey it does not accept).
    @discardableResult
    public func signIn(email: String? = nil) async throws -> SignInResult {
        let options = try await client.passkeySignInOptions(email: email)
        let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: options.relyingPartyID)
        let request = provider.createCredentialAssertionRequest(challenge: options.challenge)
        request.userVerificationPreference = .required
        request.allowedCredentials = options.allowedCredentialIDs.map { ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0) }
        guard case .assertion(let assertion) = try await perform(request) else { throw PasskeyAuthorizationError.invalidCredential }
        return try await client.signInWithPasskey(assertion)
    }

    /// Creates a passkey for the signed-in user and registers it: the options, the system sheet, the server's check.
    ///
    /// - Parameter name: A name to list it by; the server says "Passkey" when `nil`.
    /// - Returns: The new passkey.
    /// - Throws: ``PasskeyAuthorizationError`` (``PasskeyAuthorizationError/cancelled`` when the user closes the sheet),
    ///   or ``GatehouseError`` (`notSignedIn`, `providerDisabled`, `invalidCredentials` …).
    @discardableResult
    public func register(name: String? = nil) async throws -> Passkey {
        let options = try await client.passkeyRegistrationOptions()
        let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: options.relyingPartyID)
        let request = provider.createCredentialRegistrationRequest(challenge: options.challenge, name: options.userName, userID: options.userID)
        request.userVerificationPreference = .required
        #if !os(visionOS)
        // Passkey requests honour excludedCredentials from iOS 17.4 and macOS 14.4; earlier systems replace the
        // passkey they hold for this user instead.
        if #available(iOS 17.4, macOS 14.4, *) {
            request.excludedCredentials = options.excludedCredentialIDs.map { ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0) }
        }
        #endif
        guard case .registration(let registration) = try await perform(request) else { throw PasskeyAuthorizationError.invalidCredential }
        return try await client.registerPasskey(registration, name: name)
    }

    /// Shows the sheet for `request` and waits for its answer.
    private func perform(_ request: ASAuthorizationRequest) async throws -> Outcome {
        guard pending == nil else { throw PasskeyAuthorizationError.busy }
        return try await withCheckedThrowingContinuation { continuation in
            pending = ResumeOnce(continuation)
            let controller = ASAuthorizationController(authorizationRequests: [request])
            controller.delegate = self
            controller.presentationContextProvider = self
            self.controller = controller
            controller.performRequests()
        }
    }

    private func finish(_ result: Result<Outcome, any Error>) {
        let waiting = pending
        pending = nil
        controller = nil
        waiting?.resume(with: result)
    }

    /// Takes the passkey the sheet returned.
    ///
    /// - Parameters:
    ///   - controller: The controller that ran the request.
    ///   - authorization: Its answer: a platform passkey registration or assertion.
    public func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization) {
        switch authorization.credential {
        case let credential as ASAuthorizationPlatformPublicKeyCredentialRegistration:
            guard let attestationObject = credential.rawAttestationObject else {
                return finish(.failure(PasskeyAuthorizationError.invalidCredential))
            }
            let registration = PasskeyRegistration(
                credentialID: credential.credentialID,
                clientDataJSON: credential.rawClientDataJSON,
                attestationObject: attestationObject
            )
            finish(.success(.registration(registration)))
        case let credential as ASAuthorizationPlatformPublicKeyCredentialAssertion:
            guard let authenticatorData = credential.rawAuthenticatorData, let signature = credential.signature else {
                return finish(.failure(PasskeyAuthorizationError.invalidCredential))
            }
            let assertion = PasskeyAssertion(
                credentialID: credential.credentialID,
                clientDataJSON: credential.rawClientDataJSON,
                authenticatorData: authenticatorData,
                signature: signature,
                userHandle: credential.userID
            )
            finish(.success(.assertion(assertion)))
        default:
            finish(.failure(PasskeyAuthorizationError.invalidCredential))
        }
    }

    /// Reports the sheet's failure: closing it is ``PasskeyAuthorizationError/cancelled``.
    ///
    /// - Parameters:
    ///   - controller: The controller that ran the request.
    ///   - error: Why it ended.
    public func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
        if let error = error as? ASAuthorizationError, error.code == .canceled {
            finish(.failure(PasskeyAuthorizationError.cancelled))
        } else {
            finish(.failure(PasskeyAuthorizationError.failed(String(describing: error))))
        }
    }

    /// The window the sheet is presented from.
    ///
    /// - Parameter controller: The controller asking.
    /// - Returns: The anchor given at init.
    public func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
        anchor()
    }
}
#endif
