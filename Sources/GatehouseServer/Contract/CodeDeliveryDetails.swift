import GatehouseCore

/// Where a code was sent (`code_delivery`).
public struct CodeDeliveryDetails: ContractResponse, Equatable {
    public let medium: String
    public let destination: String

    /// The wire form of the core's delivery.
    /// - Parameter delivery: Where the core sent the code.
    public init(_ delivery: CodeDelivery) {
        medium = delivery.medium
        destination = delivery.destination
    }
}
