import GatehouseAWS
import GatehouseCore

extension GatehouseConfiguration {
    /// Reads where text messages go (`GATEHOUSE_SMS`: `outbox`, the default, or `sns`).
    /// - Parameter reader: The environment.
    /// - Throws: ``ConfigurationError`` naming the variable at fault.
    mutating func readSMS(_ reader: EnvironmentReader) throws {
        do {
            sms = try Self.smsTransport(reader.string("GATEHOUSE_SMS") ?? "outbox", environment: reader.env)
        } catch let error as SMSSettingsError {
            throw ConfigurationError("\(error.variable): \(error.message)")
        }
    }

    /// The SMS transport settings `value` names.
    /// - Parameters:
    ///   - value: `GATEHOUSE_SMS`.
    ///   - environment: The environment (the SNS settings and the AWS credentials).
    /// - Returns: The settings.
    /// - Throws: ``SMSSettingsError`` naming the variable at fault.
    static func smsTransport(_ value: String, environment: [String: String]) throws -> SMSTransportSettings {
        switch value.lowercased() {
        case "outbox":
            return .outbox
        case "sns":
            return .sns(try SNSSettings(environment: environment))
        default:
            throw SMSSettingsError(variable: "GATEHOUSE_SMS", "must be outbox or sns (it is '\(value.prefix(40))').")
        }
    }
}
