import Foundation

#if canImport(Observation)

/// The second step of a sign-in (an authenticator app's code or a recovery code), for the model's code screen.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
extension AuthModel {
    /// What ``errorMessage`` says when the second step's token has expired or was used: start again.
    static let secondFactorExpired = "That sign-in took too long. Please sign in again."

    /// Finishes the sign-in that set ``needsSecondFactor`` and loads the profile. A wrong code keeps the code screen
    /// (``errorCode`` is ``ErrorCode/codeMismatch``); an expired step (5 minutes) leaves it, with a message to sign
    /// in again.
    ///
    /// - Parameter code: The authenticator app's current 6-digit code, or a recovery code.
    public func submitSecondFactor(code: String) async {
        guard let token = secondFactorToken else { return fail("Sign in first.") }
        var expired = false
        await perform {
            do {
                try await client.completeSecondFactor(mfaToken: token, code: code)
            } catch let error as GatehouseError where error.code == .invalidGrant {
                expired = true
                throw error
            }
            try await signedIn()
        }
        if expired {
            secondFactorToken = nil
            errorMessage = Self.secondFactorExpired
        }
    }

    /// Leaves the code screen (the "back" button): forgets the pending second step.
    public func cancelSecondFactor() {
        secondFactorToken = nil
        errorMessage = nil
        errorCode = nil
    }
}
#endif
