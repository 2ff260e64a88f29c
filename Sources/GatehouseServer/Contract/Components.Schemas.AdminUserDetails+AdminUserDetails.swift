import GatehouseAPI
import GatehouseCore

/// `GET /admin/users/{sub}`: one user, its linked identities, live sessions, passkeys and second factor.
extension Components.Schemas.AdminUserDetails {
    /// The admin API's view of a user's details.
    /// - Parameter details: What the administration use case read.
    init(_ details: GatehouseCore.AdminUserDetails) {
        self.init(
            value1: .init(details.user),
            value2: .init(
                identities: details.identities.map {
                    .init(provider: $0.provider, linkedAt: $0.linkedAt, isPrivateEmail: $0.isPrivateEmail, emailForwarding: $0.emailForwarding)
                },
                sessions: .init(active: details.activeSessionIDs.count, ids: details.activeSessionIDs),
                passkeys: details.passkeys.map(Components.Schemas.Passkey.init),
                mfa: .init(totp: details.mfaEnabled),
                hasProfile: details.profile != nil,
                isSuperuser: details.profile?.isSuperuser ?? false
            )
        )
    }
}
