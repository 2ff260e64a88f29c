import GatehouseAPI
import GatehouseCore

/// The seed 003 (Hero365) client's `User`: `GET /api/v1/users/me`, and the `user` of every `/api/v1`
/// sign-in. Its unknown members and `supabase_id` (no Supabase behind Gatehouse) are written as `null`.
extension Components.Schemas.CompatUser {
    /// The seed's view of a profile: active (a user who can sign in is), a superuser only if an
    /// operator made it one (`gatehouse users superuser`).
    /// - Parameter view: The caller's profile.
    init(_ view: ProfileView) {
        self.init(
            id: view.profile.sub,
            email: view.profile.email,
            phone: view.profile.phone,
            fullName: view.profile.fullName,
            isActive: true,
            isSuperuser: view.profile.isSuperuser
        )
    }
}
