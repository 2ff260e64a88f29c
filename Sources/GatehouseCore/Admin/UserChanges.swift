/// What an operator changes on a user; `nil` leaves a field as it is.
public struct UserChanges: Sendable, Equatable {
    /// The new display name; `.some(nil)` clears it.
    public var name: String??
    /// The new `email_verified`.
    public var emailVerified: Bool?
    /// `true` disables the user (ending every session), `false` enables it.
    public var disabled: Bool?

    /// Changes.
    /// - Parameters:
    ///   - name: The new name, `.some(nil)` to clear it, `nil` to keep it.
    ///   - emailVerified: The new verification flag.
    ///   - disabled: The new disabled state.
    public init(name: String?? = nil, emailVerified: Bool? = nil, disabled: Bool? = nil) {
        self.name = name
        self.emailVerified = emailVerified
        self.disabled = disabled
    }

    /// `true` when nothing would change.
    public var isEmpty: Bool { name == nil && emailVerified == nil && disabled == nil }
}
