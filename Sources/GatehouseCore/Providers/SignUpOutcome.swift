/// What a strategy's sign-up came to. The answer to the client is the same either way; what differs
/// is the mail: ``PasswordAuthentication`` draws on the address's mail quota for a new account's code
/// (already queued with the account), and for a taken address asks the strategy to send the owner a
/// notice only while the quota lasts.
public enum SignUpOutcome: Sendable {
    /// A new unconfirmed account, its code queued (or, upstream, the provider mailed it).
    case created(SignUpResult)
    /// The address already has an account: nothing changed. `owner` is who gets the notice (`nil`
    /// when the account vanished meanwhile).
    case taken(SignUpResult, owner: UserRecord?)

    /// The answer the client gets.
    public var answer: SignUpResult {
        switch self {
        case .created(let result), .taken(let result, _): result
        }
    }
}
