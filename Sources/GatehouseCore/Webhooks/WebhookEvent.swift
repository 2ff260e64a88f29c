/// What a webhook tells a receiver: the Standard Webhooks `type` of a payload, and what an endpoint
/// subscribes to. Each is the webhook face of an audit event, enqueued in the transaction that writes
/// the audit row (so a receiver hears of exactly the changes that committed).
public enum WebhookEvent: String, Sendable, CaseIterable, Codable {
    /// An account was created: signed up (password, social, phone) or created by an operator.
    case userCreated = "user.created"
    /// A signed-up account confirmed its address with the mailed code.
    case userConfirmed = "user.confirmed"
    /// An account was deleted (by its owner or an operator).
    case userDeleted = "user.deleted"
    /// An operator disabled an account.
    case userDisabled = "user.disabled"
    /// The account's email address changed.
    case userEmailChanged = "user.email_changed"
    /// A session started (any method; `data.method` says which).
    case userSignedIn = "user.signed_in"
    /// The password was changed by its owner or reset with a mailed code.
    case userPasswordChanged = "user.password_changed"
    /// One or every session of a user ended (`data.reason` says how).
    case sessionRevoked = "session.revoked"
    /// A rotated refresh token came back and its session was ended.
    case sessionRefreshReuseDetected = "session.refresh_reuse_detected"
    /// Apple said the user stopped using Sign in with Apple with the app (the Apple identity is unlinked).
    case appleConsentRevoked = "apple.consent_revoked"
    /// Apple said the user turned mail forwarding through the private relay off (`email-disabled`).
    case appleEmailDisabled = "apple.email_disabled"
    /// Apple said the user turned mail forwarding through the private relay on again (`email-enabled`).
    case appleEmailEnabled = "apple.email_enabled"

    /// The webhook event an audit row stands for, if any.
    /// - Parameter event: The audit event.
    /// - Returns: The webhook event, or `nil` for audit rows receivers are not told about.
    public init?(audit event: AuditEvent) {
        switch event {
        case .userCreated, .signedUp: self = .userCreated
        case .signUpConfirmed: self = .userConfirmed
        case .accountDeleted: self = .userDeleted
        case .userDisabled: self = .userDisabled
        case .emailChanged: self = .userEmailChanged
        case .signIn: self = .userSignedIn
        case .passwordChanged, .passwordReset: self = .userPasswordChanged
        case .signOut, .signOutAll, .sessionEnded, .userSignedOut: self = .sessionRevoked
        case .refreshReuse: self = .sessionRefreshReuseDetected
        case .appleConsentRevoked: self = .appleConsentRevoked
        case .appleEmailDisabled: self = .appleEmailDisabled
        case .appleEmailEnabled: self = .appleEmailEnabled
        default: return nil
        }
    }

    /// Parses an operator's comma-separated list (`user.created,user.deleted`; `*` for every event).
    /// - Parameter list: The list.
    /// - Returns: The events, without repeats, in declaration order.
    /// - Throws: `invalid_request` naming an unknown event, or for an empty list.
    public static func parse(list: String) throws -> [WebhookEvent] {
        let names = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if names == ["*"] { return allCases }
        guard !names.isEmpty, names.count <= allCases.count * 2 else {
            throw GatehouseError.invalidRequest("Give the events as a comma-separated list, e.g. user.created,user.deleted (or * for all).")
        }
        var chosen = Set<WebhookEvent>()
        for name in names {
            guard let event = WebhookEvent(rawValue: name) else {
                let known = allCases.map(\.rawValue).joined(separator: ", ")
                throw GatehouseError.invalidRequest("Unknown webhook event \(String(name.prefix(60))); known: \(known).")
            }
            chosen.insert(event)
        }
        return allCases.filter(chosen.contains)
    }
}
