/// A password change as a strategy prepared it: ``PasswordAuthentication`` runs ``verifyCurrent``
/// while the attempt is reserved against the sign-in limits of ``accountKey``, then ``apply``.
public struct PasswordChangePlan: Sendable {
    /// The subject of the account's sign-in bucket (the pool: the address's key; Cognito: the `sub`).
    public var accountKey: String
    /// Checks the current password; throws `invalid_credentials` when it is wrong.
    public var verifyCurrent: @Sendable () async throws -> Void
    /// Makes the change and returns what it ended.
    public var apply: @Sendable () async throws -> [DomainEvent]

    /// Creates a plan.
    /// - Parameters:
    ///   - accountKey: The subject of the account's sign-in bucket.
    ///   - verifyCurrent: Checks the current password.
    ///   - apply: Makes the change, returning what it ended.
    public init(
        accountKey: String,
        verifyCurrent: @escaping @Sendable () async throws -> Void,
        apply: @escaping @Sendable () async throws -> [DomainEvent]
    ) {
        self.accountKey = accountKey
        self.verifyCurrent = verifyCurrent
        self.apply = apply
    }
}
