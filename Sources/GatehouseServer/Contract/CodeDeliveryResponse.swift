import GatehouseCore

/// `POST /auth/resend-code` and `POST /auth/password/forgot`.
public struct CodeDeliveryResponse: ContractResponse, Equatable {
    public let codeDelivery: CodeDeliveryDetails

    enum CodingKeys: String, CodingKey {
        case codeDelivery = "code_delivery"
    }

    /// - Parameter delivery: Where the core sent the code.
    public init(_ delivery: CodeDelivery) {
        codeDelivery = CodeDeliveryDetails(delivery)
    }
}
