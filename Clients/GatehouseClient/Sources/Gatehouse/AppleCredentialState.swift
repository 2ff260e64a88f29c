import Foundation

#if canImport(AuthenticationServices)
import AuthenticationServices
#endif

/// What Apple says about a Sign in with Apple user (`ASAuthorizationAppleIDProvider.getCredentialState`).
/// Check it at launch for users who signed in with Apple: a revoked credential (the user removed the app
/// from their Apple ID's "Sign in with Apple" list) must sign them out, as Apple's guidelines require; it ends
/// only a session made by Sign in with Apple (``Session/signInMethod``).
public enum AppleCredentialState: Sendable, Equatable {
    /// Still authorised.
    case authorized
    /// The user revoked the app.
    case revoked
    /// Apple knows no such user for this app.
    case notFound
    /// The app was transferred to another team; sign in again to migrate the user.
    case transferred

    /// Whether this state ends a Gatehouse session made by Sign in with Apple.
    public var endsSession: Bool { self == .revoked || self == .notFound }
}

extension GatehouseClient {
    /// Signs out when `state` says Apple no longer vouches for the user and the session was made by Sign in with
    /// Apple (the decision part of ``checkAppleCredential(appleUserID:)``, usable on every platform).
    ///
    /// Apple's answer is about one Apple ID, not about the session: a session made another way (email and
    /// password, Google, a phone, the hosted page) is left alone, as is one stored by an SDK version that did not
    /// record how it was made (``Session/signInMethod`` `nil`); only a ``SignInMethod/apple`` session ends.
    ///
    /// - Parameter state: What Apple answered.
    /// - Returns: Whether the session was ended.
    /// - Throws: ``GatehouseError/storage(_:)`` when the store cannot be read, or cannot delete the session (it
    ///   ended anyway).
    @discardableResult
    public func apply(_ state: AppleCredentialState) async throws -> Bool {
        guard state.endsSession, let session = try loadedSession(), session.signInMethod == .apple else { return false }
        log(.info, "Apple reports the credential \(state); signing out")
        try await signOut()
        return true
    }

    #if canImport(AuthenticationServices) && !os(tvOS)
    /// Asks Apple for the credential state of `appleUserID` and signs out when it is revoked or unknown and the
    /// session was made by Sign in with Apple (see ``apply(_:)``: other sessions are never ended by it).
    /// Call it at launch (and on `ASAuthorizationAppleIDProvider.credentialRevokedNotification`) for users who
    /// signed in with Apple; keep `ASAuthorizationAppleIDCredential.user` from their sign-in for it.
    ///
    /// - Parameter appleUserID: The Apple user identifier (`credential.user`), not the Gatehouse `sub`.
    /// - Returns: Apple's answer (a failure to ask counts as ``AppleCredentialState/authorized``: offline
    ///   never signs out).
    /// - Throws: ``GatehouseError/storage(_:)`` when the store cannot delete the session.
    @discardableResult
    public func checkAppleCredential(appleUserID: String) async throws -> AppleCredentialState {
        let state: AppleCredentialState = await withCheckedContinuation { continuation in
            ASAuthorizationAppleIDProvider().getCredentialState(forUserID: appleUserID) { state, _ in
                switch state {
                case .revoked: continuation.resume(returning: .revoked)
                case .notFound: continuation.resume(returning: .notFound)
                case .transferred: continuation.resume(returning: .transferred)
                default: continuation.resume(returning: .authorized)
                }
            }
        }
        try await apply(state)
        return state
    }
    #endif
}
