import GatehouseAPI
import GatehouseCore

/// `POST /auth/resend-code`, `/auth/password/forgot`, `/auth/phone/send`, `/me/phone` and `/me/email`.
extension Components.Schemas.CodeDeliveryResult {
    /// - Parameter delivery: Where the core sent the code.
    init(_ delivery: GatehouseCore.CodeDelivery) {
        self.init(codeDelivery: .init(delivery))
    }
}
