import GatehouseAPI
import GatehouseCore

/// Where a code was sent (`code_delivery`).
extension Components.Schemas.CodeDelivery {
    /// The wire form of the core's delivery.
    /// - Parameter delivery: Where the core sent the code (`EMAIL` or `SMS`, the only media it makes).
    init(_ delivery: GatehouseCore.CodeDelivery) {
        self.init(medium: MediumPayload(rawValue: delivery.medium) ?? .email, destination: delivery.destination)
    }
}
