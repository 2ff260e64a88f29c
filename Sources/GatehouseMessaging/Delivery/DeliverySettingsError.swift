import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging

/// A mail or SMS setting that cannot work, naming the environment variable to fix. The server stops at
/// start with it; the message never contains a password or a key.
public struct DeliverySettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The environment variable at fault (`GATEHOUSE_MAIL`, `GATEHOUSE_SMTP_CA_FILE`, `GATEHOUSE_SNS_REGION`, …).
    public var variable: String
    /// What is wrong and how to fix it.
    public var message: String

    /// An error.
    /// - Parameters:
    ///   - variable: The environment variable at fault.
    ///   - message: What is wrong, without secrets.
    public init(variable: String, _ message: String) {
        self.variable = variable
        self.message = message
    }

    /// `VARIABLE: message`.
    public var description: String { "\(variable): \(message)" }
}
