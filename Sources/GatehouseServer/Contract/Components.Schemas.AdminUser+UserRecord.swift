import GatehouseAPI
import GatehouseCore

/// A user in the admin API's lists and answers (`/admin/users`), and the head of one user's details.
extension Components.Schemas.AdminUser {
    /// The admin API's view of a stored user.
    /// - Parameter user: The user.
    init(_ user: UserRecord) {
        self.init(
            sub: user.id,
            email: user.email,
            emailVerified: user.emailVerified,
            phoneNumber: user.phone,
            name: user.name,
            confirmed: user.confirmed,
            disabled: user.disabledAt != nil,
            disabledAt: user.disabledAt,
            createdAt: user.createdAt,
            updatedAt: user.updatedAt
        )
    }
}
