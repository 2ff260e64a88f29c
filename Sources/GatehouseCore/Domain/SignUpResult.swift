import Foundation

/// The answer to a sign-up: identical in shape for new and already-registered addresses.
public struct SignUpResult: Sendable, Equatable {
    /// The new user's `sub`; for an address already registered, a fresh random UUID that names no account.
    public var userSub: String
    /// `false` with the embedded pool (every sign-up awaits its code); Cognito's `UserConfirmed` otherwise.
    public var userConfirmed: Bool
    /// Where the confirmation code went, masked.
    public var codeDelivery: CodeDelivery

    /// A sign-up answer.
    /// - Parameters:
    ///   - userSub: The new user's `sub` (or a random decoy).
    ///   - userConfirmed: Whether the account is usable without a code.
    ///   - codeDelivery: Where the code went, masked.
    public init(userSub: String, userConfirmed: Bool, codeDelivery: CodeDelivery) {
        self.userSub = userSub
        self.userConfirmed = userConfirmed
        self.codeDelivery = codeDelivery
    }
}
