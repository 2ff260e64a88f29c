import GatehouseAPI
import GatehouseCore

/// `GET /me`, `PATCH /me` and the phone and email verifications: the caller's profile and linked sign-in methods.
extension Components.Schemas.Profile {
    /// The wire form of the core's profile view.
    /// - Parameter view: The profile and its identities.
    init(_ view: ProfileView) {
        let profile = view.profile
        self.init(
            sub: profile.sub,
            email: profile.email,
            emailVerified: profile.emailVerified,
            fullName: profile.fullName,
            phone: profile.phone,
            phoneVerified: profile.phoneVerified,
            identities: view.identities.map {
                .init(provider: $0.provider, linkedAt: $0.linkedAt, isPrivateEmail: $0.isPrivateEmail, emailForwarding: $0.emailForwarding)
            },
            createdAt: profile.createdAt,
            updatedAt: profile.updatedAt
        )
    }
}
