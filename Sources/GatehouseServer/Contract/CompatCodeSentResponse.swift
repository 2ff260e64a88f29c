import GatehouseCore

/// The answer to `POST /api/v1/auth/otp/send` (seed 003): a message and the masked number, the same
/// whether or not the number has an account.
public struct CompatCodeSentResponse: ContractResponse, Equatable {
    public let message: String
    /// The number, masked (`+14…23`).
    public let phone: String

    public init(_ delivery: CodeDelivery) {
        message = "Verification code sent."
        phone = delivery.destination
    }
}
