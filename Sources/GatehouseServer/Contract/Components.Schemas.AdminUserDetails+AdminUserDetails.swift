import GatehouseAPI
import GatehouseCore
import OpenAPIRuntime

/// `GET /admin/users/{sub}`: one user, its linked identities, live sessions, passkeys and second factor.
extension Components.Schemas.AdminUserDetails {
    /// The admin API's view of a user's details.
    /// - Parameter details: What the administration use case read.
    /// - Throws: `EncodingError` if a passkey's record is not a JSON object (it always is).
    init(_ details: GatehouseCore.AdminUserDetails) throws {
        self.init(
            value1: .init(details.user),
            value2: .init(
                identities: details.identities.map {
                    .init(provider: $0.provider, linkedAt: $0.linkedAt, isPrivateEmail: $0.isPrivateEmail, emailForwarding: $0.emailForwarding)
                },
                sessions: .init(active: details.activeSessionIDs.count, ids: details.activeSessionIDs),
                // The document's passkey items are any object: the record is the passkey routes' own (`PasskeyController.render`).
                passkeys: try details.passkeys.map { try OpenAPIObjectContainer(PasskeyController.render($0)) },
                mfa: .init(totp: details.mfaEnabled),
                hasProfile: details.profile != nil,
                isSuperuser: details.profile?.isSuperuser ?? false
            )
        )
    }
}
