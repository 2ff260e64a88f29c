import Foundation

#if canImport(Observation)
import Observation

/// The state a sign-in screen needs (the seeds' `AuthManager`), driven by a ``GatehouseClient``.
/// Views read the properties and call the actions; every decision lives here, where it is tested.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
@MainActor
@Observable
public final class AuthModel {
    /// Where the model is: restoring at launch (show neither the sign-in screen nor the app yet), signed out,
    /// or signed in. It follows the client's ``GatehouseClient/authStateChanges``.
    public enum Phase: Sendable, Equatable {
        /// The stored session has not been read yet, or could not be (the Keychain before the first unlock).
        case restoring
        /// No session: show sign-in.
        case signedOut
        /// A session is stored (it may be offline: only the server refusing the refresh token ends it).
        case signedIn
    }

    /// Where the model is; starts at ``Phase/restoring``.
    public private(set) var phase: Phase = .restoring
    /// Whether a session is stored (``phase`` is ``Phase/signedIn``); `false` while restoring too.
    public var isAuthenticated: Bool { phase == .signedIn }
    /// The signed-in user from the ID token, available offline at launch; `nil` when signed out.
    public private(set) var user: User?
    /// An action is under way; disable its buttons meanwhile.
    public private(set) var isLoading = false
    /// A message to show, from the last failed action (cleared when the next one starts).
    public var errorMessage: String?
    /// The last failure's code, for screens that react to specific ones.
    public internal(set) var errorCode: ErrorCode?
    /// Sign-up (or sign-in) is waiting for the emailed code.
    public private(set) var needsConfirmation = false
    /// The address the confirmation or reset code went to.
    public private(set) var pendingEmail: String?
    /// A reset code was sent to ``pendingEmail``.
    public private(set) var awaitingResetCode = false
    /// The number a phone code was texted to (``sendPhoneCode(to:)`` or ``addPhone(_:)``): show the code screen
    /// while it is set. Cleared by a sign-in, ``verifyPhone(code:)`` and ``cancelPhone()``.
    public internal(set) var pendingPhone: String?
    /// Where the pending phone code went, masked (`+14…23`), for the code screen.
    public internal(set) var phoneCodeDelivery: CodeDelivery?
    /// The signed-in user's profile, loaded after sign-in and by ``loadProfile()``; `nil` when signed out.
    public internal(set) var profile: Profile?
    /// The signed-in user's passkeys, loaded by ``loadPasskeys()`` and after ``addPasskey(_:)``; empty when signed out.
    public internal(set) var passkeys: [Passkey] = []
    /// Whether the server offers passkeys: `false` once ``loadPasskeys()`` found them off (hide the passkey screens).
    public internal(set) var passkeysAvailable = true
    /// The `mfa_token` of a sign-in that answered ``ErrorCode/mfaRequired``, kept for ``submitSecondFactor(code:)``.
    var secondFactorToken: String?
    /// A sign-in's first step was right and the account has an authenticator app: show the code screen, then call
    /// ``submitSecondFactor(code:)`` (or ``cancelSecondFactor()`` for "back").
    public var needsSecondFactor: Bool { secondFactorToken != nil }

    /// The client the actions call; use it directly for anything the model does not cover (``GatehouseClient/send(_:)``).
    public let client: GatehouseClient
    // Written once in init, cancelled in deinit (which is not main-actor isolated before Swift 6.2).
    @ObservationIgnored nonisolated(unsafe) private var listener: Task<Void, Never>?

    /// A model driven by `client`, following its auth events for as long as the model lives.
    /// Call ``restore()`` at launch.
    ///
    /// - Parameter client: The client whose session the model shows.
    public init(client: GatehouseClient) {
        self.client = client
        let changes = client.authStateChanges
        listener = Task { [weak self] in
            for await change in changes {
                guard let self else { return }
                self.apply(change)
            }
        }
    }

    deinit {
        listener?.cancel()
    }

    /// Restores a stored session at launch and loads the profile. ``phase`` leaves ``Phase/restoring`` only
    /// when the store could be read: a Keychain that is still locked sets ``errorMessage`` and keeps it there
    /// (call this again later), and an offline launch is signed in with ``user`` from the ID token.
    public func restore() async {
        do {
            try await client.restore()
        } catch let error as GatehouseError {
            errorCode = error.code
            errorMessage = Self.message(for: error)
            return
        } catch {
            errorMessage = error.localizedDescription
            return
        }
        errorMessage = nil
        syncWithClient()
        if isAuthenticated { profile = try? await client.profile() }
    }

    /// Signs in and loads the profile. An unconfirmed account sets ``needsConfirmation`` and
    /// ``pendingEmail`` (show the code screen); an account with an authenticator app sets ``needsSecondFactor`` (as
    /// every sign-in here does); other failures set ``errorMessage``.
    ///
    /// - Parameters:
    ///   - email: The account's address.
    ///   - password: The account's password.
    public func signIn(email: String, password: String) async {
        await perform {
            do {
                try await client.signIn(email: email, password: password)
                try await signedIn()
            } catch let error as GatehouseError where error.code == .userNotConfirmed {
                needsConfirmation = true
                pendingEmail = email
                throw error
            }
        }
    }

    /// Creates the account; on success ``pendingEmail`` is set and ``needsConfirmation`` says whether to
    /// show the code screen next (then call ``confirm(code:password:)``).
    ///
    /// - Parameters:
    ///   - email: The address to register.
    ///   - password: The new password; a policy failure shows the server's message.
    ///   - fullName: An optional display name.
    public func signUp(email: String, password: String, fullName: String? = nil) async {
        await perform {
            let result = try await client.signUp(email: email, password: password, fullName: fullName)
            pendingEmail = email
            needsConfirmation = !result.userConfirmed
        }
    }

    /// Confirms the pending sign-up; with `password` it also signs in.
    ///
    /// - Parameters:
    ///   - code: The code from the sign-up mail.
    ///   - password: The password just chosen, to sign in straight after; `nil` leaves the user signed out.
    public func confirm(code: String, password: String? = nil) async {
        guard let email = pendingEmail else { return fail("Start by signing up.") }
        await perform {
            try await client.confirmSignUp(email: email, code: code)
            needsConfirmation = false
            if let password {
                try await client.signIn(email: email, password: password)
                try await signedIn()
            }
        }
    }

    /// Mails a new confirmation code to ``pendingEmail`` (at most one a minute; sooner shows a wait message).
    public func resendCode() async {
        guard let email = pendingEmail else { return fail("Start by signing up.") }
        await perform { try await client.resendCode(email: email) }
    }

    /// Mails a reset code; on success ``awaitingResetCode`` is set (show the new-password screen next).
    ///
    /// - Parameter email: The account's address; unknown addresses look the same to the user.
    public func forgotPassword(email: String) async {
        await perform {
            try await client.forgotPassword(email: email)
            pendingEmail = email
            awaitingResetCode = true
        }
    }

    /// Sets the new password with the code sent to ``pendingEmail``; the user then signs in with it
    /// (every session of the account has ended).
    ///
    /// - Parameters:
    ///   - code: The code from the reset mail.
    ///   - newPassword: The new password.
    public func resetPassword(code: String, newPassword: String) async {
        guard let email = pendingEmail else { return fail("Ask for a reset code first.") }
        await perform {
            try await client.resetPassword(email: email, code: code, newPassword: newPassword)
            awaitingResetCode = false
        }
    }

    /// Exchanges Sign in with Apple's credential for a session and loads the profile.
    ///
    /// - Parameters:
    ///   - identityToken: The credential's identity token, as a string.
    ///   - authorizationCode: The credential's authorization code, as a string.
    ///   - nonce: The nonce whose ``Nonce/hashed`` was set on the Apple request.
    ///   - email: The address Apple shared (first authorisation only).
    ///   - fullName: The name Apple shared (first authorisation only), formatted for display.
    public func signInWithApple(identityToken: String, authorizationCode: String?, nonce: Nonce, email: String?, fullName: String?) async {
        await perform {
            try await client.signInWithApple(
                identityToken: identityToken,
                authorizationCode: authorizationCode,
                rawNonce: nonce.raw,
                email: email,
                fullName: fullName
            )
            try await signedIn()
        }
    }

    /// Exchanges a Google ID token for a session and loads the profile.
    ///
    /// - Parameters:
    ///   - idToken: The Google ID token.
    ///   - nonce: The nonce whose ``Nonce/hashed`` went to Google, if any.
    ///   - fullName: A display name to use when none is known.
    public func signInWithGoogle(idToken: String, nonce: Nonce?, fullName: String? = nil) async {
        await perform {
            try await client.signInWithGoogle(idToken: idToken, rawNonce: nonce?.raw, fullName: fullName)
            try await signedIn()
        }
    }

    /// Signs in through the server's hosted UI and loads the profile. `signIn` runs the browser part
    /// (on Apple platforms ``WebUISignIn``'s `signIn`); the user closing the sheet is not an error.
    ///
    /// ```swift
    /// await auth.signInWithWebUI { try await webUI.signIn(provider: .google) }
    /// ```
    ///
    /// - Parameter signIn: Runs the browser sign-in and returns its result.
    public func signInWithWebUI(_ signIn: () async throws -> SignInResult) async {
        await perform {
            do {
                _ = try await signIn()
            } catch WebUISignInError.cancelled {
                return
            }
            try await signedIn()
        }
    }

    /// Sets (or with `nil` clears) the display name and updates ``profile``.
    ///
    /// - Parameter fullName: The new name, or `nil`.
    public func updateName(_ fullName: String?) async {
        await perform { profile = try await client.updateProfile(fullName: fullName) }
    }

    /// Signs out on this device; the model is signed out when this returns (even if the store failed to delete).
    public func signOut() async {
        await perform { try await client.signOut() }
        syncWithClient()
    }

    /// Deletes the account; the model is signed out when this returns. Confirm with the user first.
    public func deleteAccount() async {
        await perform { try await client.deleteAccount() }
        syncWithClient()
    }

    /// Changes the password; the user's other sessions end, this one stays. A wrong `current` shows
    /// "Incorrect email or password." and changes nothing (the session is not refreshed for it).
    ///
    /// - Parameters:
    ///   - current: The password now in use.
    ///   - new: The new password.
    /// - Returns: Whether the password was changed.
    @discardableResult
    public func changePassword(current: String, new: String) async -> Bool {
        var changed = false
        await perform {
            try await client.changePassword(current: current, new: new)
            changed = true
        }
        return changed
    }

    /// Ends every session of the user on every device, this one included.
    public func signOutEverywhere() async {
        await perform { try await client.signOutEverywhere() }
        syncWithClient()
    }

    /// Leaves the confirmation screen (the "back" button): forgets ``pendingEmail`` and ``needsConfirmation``.
    public func cancelConfirmation() {
        needsConfirmation = false
        pendingEmail = nil
        errorMessage = nil
        errorCode = nil
    }

    /// Shows a failure that happened outside the model (Sign in with Apple's sheet, your own API call).
    ///
    /// - Parameter error: What failed; ``GatehouseError`` gets the model's words, others their description.
    public func report(_ error: any Error) {
        errorCode = (error as? GatehouseError)?.code
        errorMessage = (error as? GatehouseError).map(Self.message(for:)) ?? error.localizedDescription
    }

    /// Reloads ``profile`` from the server.
    public func loadProfile() async {
        await perform { profile = try await client.profile() }
    }

    // MARK: Internals

    func signedIn() async throws {
        syncWithClient()
        needsConfirmation = false
        pendingEmail = nil
        pendingPhone = nil
        phoneCodeDelivery = nil
        secondFactorToken = nil
        profile = try await client.profile()
    }

    /// Takes the client's current state (not an event's, which may be older than an action that just returned).
    private func syncWithClient() {
        guard client.isRestored else { return }
        let session = client.currentSession
        phase = session == nil ? .signedOut : .signedIn
        user = client.currentUser
        if session == nil {
            profile = nil
            passkeys = []
        }
    }

    /// Runs an action; whether it succeeds or fails, the model takes the client's state when it returns
    /// (a sign-in the store refused still signed the client in; an `invalid_grant` ended the session). A sign-in that
    /// asks for a second factor keeps its token for ``submitSecondFactor(code:)`` and shows no error: the code
    /// screen is the answer.
    func perform(_ action: () async throws -> Void) async {
        isLoading = true
        errorMessage = nil
        errorCode = nil
        defer {
            syncWithClient()
            isLoading = false
        }
        do {
            try await action()
        } catch let error as GatehouseError {
            errorCode = error.code
            if let token = error.mfaToken {
                secondFactorToken = token
                return
            }
            errorMessage = Self.message(for: error)
        } catch {
            errorMessage = error.localizedDescription
        }
    }

    func fail(_ message: String) {
        errorMessage = message
    }

    private func apply(_ change: AuthStateChange) {
        syncWithClient()
        if change.event == .sessionExpired, client.currentSession == nil {
            errorMessage = "Your session ended. Please sign in again."
        }
    }

    /// Words for people, by the contract's codes (``GatehouseError/errorDescription``); never a server's text
    /// meant for developers, a code the SDK does not know, or a proxy's page (those stay in
    /// ``GatehouseError/debugDescription``, for logs).
    ///
    /// - Parameter error: What an SDK call threw.
    /// - Returns: A sentence to show: fixed words for the contract's codes, the server's message for the codes
    ///   whose messages are written for people (a refused field or number, the password policy, a conflict), the
    ///   wait time for `too_many_requests` when the server gave one, and a generic sentence otherwise.
    public static func message(for error: GatehouseError) -> String {
        error.errorDescription ?? GatehouseError.somethingWentWrong
    }
}
#endif
