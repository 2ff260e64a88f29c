import GatehouseCore

/// `POST /auth/signup` (201).
public struct SignUpResponse: ContractResponse, Equatable {
    public let userSub: String
    public let userConfirmed: Bool
    public let codeDelivery: CodeDeliveryDetails

    enum CodingKeys: String, CodingKey {
        case userSub = "user_sub"
        case userConfirmed = "user_confirmed"
        case codeDelivery = "code_delivery"
    }

    /// - Parameter result: What the core's sign-up returned.
    public init(_ result: SignUpResult) {
        userSub = result.userSub
        userConfirmed = result.userConfirmed
        codeDelivery = CodeDeliveryDetails(result.codeDelivery)
    }
}
