/// One user as the admin API shows it.
public struct AdminUserDetails: Sendable {
    /// The pool user.
    public var user: UserRecord
    /// The app's profile, once the user called the API.
    public var profile: ProfileRecord?
    /// The linked ways in (password, google, apple, phone).
    public var identities: [IdentityRecord]
    /// The ids of the live sessions.
    public var activeSessionIDs: [String]
    /// The registered passkeys.
    public var passkeys: [PasskeyRecord]
    /// Whether an authenticator app is confirmed.
    public var mfaEnabled: Bool

    /// Details.
    /// - Parameters:
    ///   - user: The pool user.
    ///   - profile: The app's profile.
    ///   - identities: The linked identities.
    ///   - activeSessionIDs: The live sessions' ids.
    ///   - passkeys: The passkeys.
    ///   - mfaEnabled: Whether an authenticator app is confirmed.
    public init(
        user: UserRecord,
        profile: ProfileRecord?,
        identities: [IdentityRecord],
        activeSessionIDs: [String],
        passkeys: [PasskeyRecord],
        mfaEnabled: Bool
    ) {
        self.user = user
        self.profile = profile
        self.identities = identities
        self.activeSessionIDs = activeSessionIDs
        self.passkeys = passkeys
        self.mfaEnabled = mfaEnabled
    }
}
