import GatehouseAPI
import GatehouseCore

/// `POST /api/v1/auth/otp/send` (seed 003): a message and the masked number, the same whether or not
/// the number has an account.
extension Components.Schemas.CompatCodeSent {
    /// - Parameter delivery: Where the core sent the code.
    init(_ delivery: GatehouseCore.CodeDelivery) {
        self.init(message: "Verification code sent.", phone: delivery.destination)
    }
}
