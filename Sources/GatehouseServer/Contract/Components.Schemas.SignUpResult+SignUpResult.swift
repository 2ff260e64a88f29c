import GatehouseAPI
import GatehouseCore

/// `POST /auth/signup` and `POST /api/v1/auth/signup` (201).
extension Components.Schemas.SignUpResult {
    /// - Parameter result: What the core's sign-up returned.
    init(_ result: GatehouseCore.SignUpResult) {
        self.init(userSub: result.userSub, userConfirmed: result.userConfirmed, codeDelivery: .init(result.codeDelivery))
    }
}
