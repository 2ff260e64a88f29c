import Foundation

/// Where a code was sent, masked (`a***@e***.com`, `+14…23`).
public struct CodeDelivery: Sendable, Equatable {
    /// `EMAIL` or `SMS` (Cognito's `DeliveryMedium`).
    public var medium: String
    /// The masked address, so the answer confirms the destination without disclosing it.
    public var destination: String

    /// A mail delivery.
    /// - Parameter destination: The address already masked (``EmailAddress/masked``); never the clear address.
    public init(destination: String) {
        self.medium = "EMAIL"
        self.destination = destination
    }

    /// A text message.
    /// - Parameter number: The number; only its masked form is kept.
    public init(sms number: PhoneNumber) {
        self.medium = "SMS"
        self.destination = number.masked
    }
}
