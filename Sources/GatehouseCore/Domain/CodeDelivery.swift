import Foundation

/// Where a code was sent, masked (`a***@e***.com`).
public struct CodeDelivery: Sendable, Equatable {
    /// Always `EMAIL` (Cognito's `DeliveryMedium`); codes go by mail only.
    public var medium: String
    /// The masked address, so the answer confirms the destination without disclosing it.
    public var destination: String

    /// A mail delivery.
    /// - Parameter destination: The address already masked (``EmailAddress/masked``); never the clear address.
    public init(destination: String) {
        self.medium = "EMAIL"
        self.destination = destination
    }
}
